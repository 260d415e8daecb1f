/* bench-work-precision.c: error against CPU time (a work-precision
 * diagram) for the flying spaghetti, the flexible pendulum and the
 * four-bar, over the element count N, the degree k, the step dt and the two
 * integrators (physics.md §15, §16). Not a test: speed is measured here.
 *
 *   bench-work-precision [--quick] [--only NAME] [--svg DIR] [EXAMPLES_DIR]
 *
 * The error of a run is the largest distance, over the problem's sample
 * times, between what it measures and a converged reference made by the
 * same code at fine settings; the reference is checked against a second,
 * finer one, and that difference is printed ("reference check"). CPU time
 * is the process's (CLOCK_PROCESS_CPUTIME_ID) for building the system and
 * stepping it. For every target error the cheapest configuration is
 * printed; a configuration counts only if every smaller dt at the same N,
 * k and integrator also meets the target (so a lucky cancellation of space
 * and time errors does not count). The diagram is written as SVG. */
#include "fx-model.h"
#include "fx-model-io.h"
#include "fx-system.h"
#include "fx-integrator.h"
#include "fx-measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SAMPLES 64

typedef struct {
  const char *name, *measure;  /* what the error measures */
  double t_end;
  guint n_samples;             /* at t_end (i + 1) / n_samples */
  FxModel *(*build) (guint n, guint k);
  guint dims;
  void (*sample) (FxSystem *sys, double *q);
  /* sweep */
  const guint *ns;
  guint n_ns;
  double dt_coarse;
  guint halvings;
  /* reference: k, N, integrator, dt; and the finer check */
  guint ref_k, ref_n, check_n;
  FxIntegratorKind ref_integrator;
  double ref_dt;
  const double *targets;
  guint n_targets;
} Problem;

static const char *examples_dir = FX_EXAMPLES_DIR;
static gboolean quick = FALSE;

static double
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void
set_degree (FxModel *m, guint k)
{
  for (guint l = 0; l < m->links->len; l++)
    fx_model_link (m, l)->degree = k;
}

/* ---------------------------------------------------------- problems */

static FxModel *
load_example (const char *name)
{
  g_autofree char *path = g_build_filename (examples_dir, name, NULL);
  g_autoptr (GError) error = NULL;
  FxModel *m = fx_model_load_file (path, NULL, &error);
  if (m == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }
  return m;
}

/* A one-link example with its link cut into n elements of degree k. */
static FxModel *
one_link_example (const char *name, guint n, guint k)
{
  FxModel *m = load_example (name);
  fx_model_link (m, 0)->elements = n;
  set_degree (m, k);
  return m;
}

static FxModel *
spaghetti (guint n, guint k)
{
  return one_link_example ("flying-spaghetti.flexion", n, k);
}

static void
tip (FxSystem *sys, double *q)
{
  double v[FX_PROBE_N_VALUES];
  fx_system_probe_values (sys, 0, 1.0, v);
  q[0] = v[FX_PROBE_X];
  q[1] = v[FX_PROBE_Y];
}

/* physics.md §8: one stiff massless link with a 10 kg tip mass, released
 * level; N = 1 (its link carries no mass: only the time error is left). */
static FxModel *
pendulum (guint n, guint k)
{
  return one_link_example ("flexible-pendulum.flexion", n, k);
}

/* The cantilever example (plucked at the tip, under gravity). */
static FxModel *
cantilever (guint n, guint k)
{
  return one_link_example ("cantilever.flexion", n, k);
}

/* The four-bar example with each link's elements scaled from the shipped
 * 10, 6, 6 (n is the crank's). */
static FxModel *
four_bar (guint n, guint k)
{
  FxModel *m = load_example ("four-bar.flexion");
  for (guint l = 0; l < m->links->len; l++)
    {
      FxLink *link = fx_model_link (m, l);
      link->elements = l == 0 ? n : MAX (1u, (guint) lround (0.6 * n));
    }
  set_degree (m, k);
  return m;
}

/* The rocker's chord angle (its two end points). */
static void
rocker_angle (FxSystem *sys, double *q)
{
  double x0, y0, x1, y1;
  guint n = fx_system_link_elements (sys, 2);
  fx_system_node (sys, 2, 0, &x0, &y0, NULL, NULL);
  fx_system_node (sys, 2, n, &x1, &y1, NULL, NULL);
  q[0] = atan2 (y1 - y0, x1 - x0);
}

/* --------------------------------------------------------------- runs */

typedef struct {
  guint n, k;
  FxIntegratorKind integrator;
  double dt, cpu, error;
  gboolean ok;
  double q[MAX_SAMPLES * 2];
} Run;

static gboolean
run (const Problem *p, guint n, guint k, FxIntegratorKind integrator, double dt, Run *out)
{
  g_autoptr (FxModel) m = p->build (n, k);
  g_autoptr (GError) error = NULL;
  double t0 = cpu_now ();

  m->integrator = integrator;
  *out = (Run) { n, k, integrator, dt, 0, INFINITY, FALSE, { 0 } };
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  if (sys == NULL)
    {
      fprintf (stderr, "%s N=%u k=%u: %s\n", p->name, n, k, error->message);
      return FALSE;
    }
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  FxStepReport rep;
  guint steps_per_sample = (guint) lround (p->t_end / p->n_samples / dt);
  for (guint s = 0; s < p->n_samples; s++)
    {
      for (guint i = 0; i < steps_per_sample; i++)
        if (!fx_integrator_step (it, dt, &rep, &error))
          {
            fprintf (stderr, "%s N=%u k=%u dt=%g: %s\n", p->name, n, k, dt, error->message);
            return FALSE;
          }
      p->sample (sys, out->q + p->dims * s);
    }
  out->cpu = cpu_now () - t0;
  out->ok = TRUE;
  return TRUE;
}

static double
distance (const Problem *p, const double *a, const double *b)
{
  double worst = 0.0;
  for (guint s = 0; s < p->n_samples; s++)
    {
      double d2 = 0.0;
      for (guint c = 0; c < p->dims; c++)
        d2 += pow (a[p->dims * s + c] - b[p->dims * s + c], 2);
      worst = MAX (worst, sqrt (d2));
    }
  return worst;
}

static const char *
integrator_name (FxIntegratorKind kind)
{
  return kind == FX_INTEGRATOR_GAUSS4 ? "gauss4" : "midpoint";
}

/* ------------------------------------------------------------ diagram */

static const char *const series_colour[2][4] = {
  { "", "#1c71d8", "#2ec27e", "#e66100" },   /* midpoint, k = 1, 2, 3 */
  { "", "#613583", "#26a269", "#c01c28" },   /* gauss4 */
};

static void
write_svg (const Problem *p, GArray *runs, const char *dir)
{
  g_autofree char *name = g_strdup_printf ("work-precision-%s.svg", p->name);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *tmp = g_strconcat (path, ".part", NULL);
  FILE *f = fopen (tmp, "w");
  const double W = 640, H = 440, x0 = 70, y0 = 20, w = 540, h = 360;
  double cmin = INFINITY, cmax = -INFINITY, emin = INFINITY, emax = -INFINITY;

  if (f == NULL)
    return;
  for (guint i = 0; i < runs->len; i++)
    {
      Run *r = &g_array_index (runs, Run, i);
      if (!r->ok || !(r->error > 0))
        continue;
      cmin = MIN (cmin, log10 (r->cpu)), cmax = MAX (cmax, log10 (r->cpu));
      emin = MIN (emin, log10 (r->error)), emax = MAX (emax, log10 (r->error));
    }
  cmin = floor (cmin), cmax = ceil (cmax), emin = floor (emin), emax = ceil (emax);
  if (!(cmax > cmin) || !(emax > emin))
    {
      fclose (f);
      remove (tmp);
      return;
    }
#define X(c) (x0 + w * ((c) - cmin) / (cmax - cmin))
#define Y(e) (y0 + h * (emax - (e)) / (emax - emin))
  fprintf (f, "<svg xmlns='http://www.w3.org/2000/svg' width='%g' height='%g' "
              "font-family='sans-serif' font-size='12'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
           W, H);
  for (double c = cmin; c <= cmax; c++)
    fprintf (f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>"
                "<text x='%.1f' y='%.1f' text-anchor='middle'>1e%+.0f</text>\n",
             X (c), y0, X (c), y0 + h, X (c), y0 + h + 16, c);
  for (double e = emin; e <= emax; e++)
    fprintf (f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>"
                "<text x='%.1f' y='%.1f' text-anchor='end'>1e%+.0f</text>\n",
             x0, Y (e), x0 + w, Y (e), x0 - 6, Y (e) + 4, e);
  fprintf (f, "<text x='%.1f' y='%.1f' text-anchor='middle'>CPU time (s)</text>\n", x0 + w / 2, H - 8);
  fprintf (f, "<text transform='translate(14 %.1f) rotate(-90)' text-anchor='middle'>%s error</text>\n",
           y0 + h / 2, p->measure);
  guint legend = 0;
  for (guint g = 0; g < 2; g++)
    for (guint k = 1; k <= 3; k++)
      {
        /* the series' lower envelope: for each run, is there one cheaper and better? */
        GString *line = g_string_new (NULL);
        gboolean any = FALSE;
        g_autoptr (GArray) front = g_array_new (FALSE, FALSE, sizeof (Run));
        for (guint i = 0; i < runs->len; i++)
          {
            Run *r = &g_array_index (runs, Run, i);
            if (!r->ok || r->k != k || (guint) r->integrator != g || !(r->error > 0))
              continue;
            any = TRUE;
            fprintf (f, "<circle cx='%.1f' cy='%.1f' r='2.5' fill='%s' fill-opacity='0.45'/>\n",
                     X (log10 (r->cpu)), Y (log10 (r->error)), series_colour[g][k]);
            gboolean dominated = FALSE;
            for (guint j = 0; j < runs->len && !dominated; j++)
              {
                Run *o = &g_array_index (runs, Run, j);
                dominated = o != r && o->ok && o->k == k && o->integrator == r->integrator
                            && o->cpu <= r->cpu && o->error < r->error;
              }
            if (!dominated)
              g_array_append_val (front, *r);
          }
        if (!any)
          {
            g_string_free (line, TRUE);
            continue;
          }
        for (guint i = 0; i < front->len; i++)
          for (guint j = i + 1; j < front->len; j++)
            if (g_array_index (front, Run, j).cpu < g_array_index (front, Run, i).cpu)
              {
                Run t = g_array_index (front, Run, i);
                g_array_index (front, Run, i) = g_array_index (front, Run, j);
                g_array_index (front, Run, j) = t;
              }
        for (guint i = 0; i < front->len; i++)
          g_string_append_printf (line, "%s%.1f,%.1f ", i ? "" : "", X (log10 (g_array_index (front, Run, i).cpu)),
                                  Y (log10 (g_array_index (front, Run, i).error)));
        fprintf (f, "<polyline points='%s' fill='none' stroke='%s' stroke-width='2'/>\n", line->str,
                 series_colour[g][k]);
        fprintf (f, "<rect x='%.1f' y='%.1f' width='14' height='3' fill='%s'/>"
                    "<text x='%.1f' y='%.1f'>degree %u, %s</text>\n",
                 x0 + w - 150, y0 + 12 + 16 * legend, series_colour[g][k], x0 + w - 130,
                 y0 + 17 + 16 * legend, k, integrator_name (g));
        legend++;
        g_string_free (line, TRUE);
      }
  fprintf (f, "<text x='%.1f' y='%.1f'>%s: work-precision (lower left is better)</text>\n</svg>\n",
           x0 + 8, y0 + 14, p->name);
  if (fclose (f) == 0 && rename (tmp, path) == 0)
    printf ("diagram: %s\n", path);
  else
    remove (tmp);
#undef X
#undef Y
}

/* ------------------------------------------------------------- sweeps */

/* Cheapest run meeting `target` whose finer steps (same N, k, integrator)
 * all meet it too. */
static const Run *
cheapest (GArray *runs, double target, guint k_only, int integrator_only)
{
  const Run *best = NULL;
  for (guint i = 0; i < runs->len; i++)
    {
      const Run *r = &g_array_index (runs, Run, i);
      if (!r->ok || r->error > target || (k_only && r->k != k_only)
          || (integrator_only >= 0 && (int) r->integrator != integrator_only))
        continue;
      gboolean all = TRUE;
      for (guint j = 0; j < runs->len && all; j++)
        {
          const Run *o = &g_array_index (runs, Run, j);
          if (o->n == r->n && o->k == r->k && o->integrator == r->integrator && o->dt < r->dt)
            all = o->ok && o->error <= target;
        }
      if (all && (best == NULL || r->cpu < best->cpu))
        best = r;
    }
  return best;
}

static void
print_best (const char *label, const Run *r, double target)
{
  if (r == NULL)
    printf ("  %-22s %8.0e: none in the sweep\n", label, target);
  else
    printf ("  %-22s %8.0e: %8.3f s CPU  (N = %u, k = %u, %s, dt = %g; error %.2e)\n", label,
            target, r->cpu, r->n, r->k, integrator_name (r->integrator), r->dt, r->error);
}

static void
sweep (const Problem *p, const char *svg_dir)
{
  Run ref, check;
  printf ("\n== %s (%s at %u time(s) up to t = %g s)\n", p->name, p->measure, p->n_samples, p->t_end);
  if (!run (p, p->ref_n, p->ref_k, p->ref_integrator, p->ref_dt, &ref)
      || !run (p, p->check_n, p->ref_k, p->ref_integrator, p->ref_dt / 2, &check))
    return;
  printf ("reference: N = %u, k = %u, %s, dt = %g (%.1f s CPU); reference check against N = %u, "
          "dt = %g: %.2e\n", p->ref_n, p->ref_k, integrator_name (p->ref_integrator), p->ref_dt,
          ref.cpu, p->check_n, p->ref_dt / 2, distance (p, ref.q, check.q));
  if (p->dims == 2)
    printf ("reference value at t = %g: (%.6f, %.6f)\n", p->t_end, check.q[0], check.q[1]);

  g_autoptr (GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  printf ("%6s %3s %9s %10s %10s %12s\n", "N", "k", "method", "dt", "CPU (s)", "error");
  for (int g = 0; g < 2; g++)
    for (guint k = 1; k <= 3; k++)
      for (guint ni = 0; ni < p->n_ns; ni++)
        {
          guint n = p->ns[ni];
          double prev_error = INFINITY;
          /* a high degree on the finest meshes costs much and tells nothing new */
          if (p->n_ns > 1 && k > 1 && n * k > p->ns[p->n_ns - 1])
            continue;
          for (guint hv = 0; hv <= p->halvings; hv++)
            {
              Run r;
              double dt = p->dt_coarse / (1 << hv);
              if (!run (p, n, k, (FxIntegratorKind) g, dt, &r))
                {
                  g_array_append_val (runs, r);  /* a failed coarse step: the finer ones decide */
                  continue;
                }
              r.error = distance (p, r.q, check.q);
              g_array_append_val (runs, r);
              printf ("%6u %3u %9s %10g %10.4f %12.3e\n", n, k, integrator_name (r.integrator), dt,
                      r.cpu, r.error);
              fflush (stdout);
              /* time error under the space error: finer steps change nothing */
              if (fabs (r.error - prev_error) < 0.02 * r.error || r.cpu > (quick ? 2.0 : 15.0))
                break;
              prev_error = r.error;
            }
        }
  printf ("cheapest CPU per target (every finer dt at the same N meets it too):\n");
  for (guint t = 0; t < p->n_targets; t++)
    {
      double target = p->targets[t];
      print_best ("overall", cheapest (runs, target, 0, -1), target);
      print_best ("degree 1, midpoint", cheapest (runs, target, 1, FX_INTEGRATOR_MIDPOINT), target);
      print_best ("degree 2, midpoint", cheapest (runs, target, 2, FX_INTEGRATOR_MIDPOINT), target);
      print_best ("degree 2, gauss4", cheapest (runs, target, 2, FX_INTEGRATOR_GAUSS4), target);
      print_best ("degree 3, gauss4", cheapest (runs, target, 3, FX_INTEGRATOR_GAUSS4), target);
    }
  if (svg_dir)
    write_svg (p, runs, svg_dir);
}

int
main (int argc, char **argv)
{
  static const guint sp_n[] = { 5, 10, 20, 40, 80, 160, 320, 640 };
  static const guint sp_n_quick[] = { 5, 10, 20, 40, 80, 160 };
  static const guint pe_n[] = { 1 };
  static const guint fb_n[] = { 2, 5, 10, 20, 40 };
  static const double sp_t[] = { 1e-1, 1e-2, 1e-3 };
  static const double pe_t[] = { 1e-2, 1e-4, 1e-6 };
  static const double fb_t[] = { 1e-2, 1e-3, 1e-4 };
  static const guint ca_n[] = { 2, 4, 8, 16, 32, 64, 128 };
  static const double ca_t[] = { 1e-4, 1e-5, 1e-6 };
  const char *only = NULL, *svg_dir = NULL;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--quick") == 0)
        quick = TRUE;
      else if (strcmp (argv[i], "--only") == 0 && i + 1 < argc)
        only = argv[++i];
      else if (strcmp (argv[i], "--svg") == 0 && i + 1 < argc)
        svg_dir = argv[++i];
      else if (argv[i][0] != '-')
        examples_dir = argv[i];
      else
        {
          /* --help, or an option it does not know (or one missing its value) */
          gboolean help = strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0;
          fprintf (help ? stdout : stderr,
                   "usage: bench-work-precision [--quick] [--only spaghetti|pendulum|cantilever|four-bar]\n"
                   "                            [--svg DIR] [EXAMPLES_DIR]\n");
          return help ? 0 : 2;
        }
    }
  Problem problems[] = {
    { "spaghetti", "tip position (m)", 15.0, 1, spaghetti, 2, tip,
      quick ? sp_n_quick : sp_n, quick ? G_N_ELEMENTS (sp_n_quick) : G_N_ELEMENTS (sp_n),
      0.1, quick ? 5 : 6, 3, 40, 60, FX_INTEGRATOR_GAUSS4, 0.1 / 32, sp_t, G_N_ELEMENTS (sp_t) },
    { "pendulum", "tip position (m)", 5.0, 1, pendulum, 2, tip, pe_n, 1, 0.1, quick ? 5 : 8, 1, 1, 1,
      FX_INTEGRATOR_GAUSS4, 0.1 / 1024, pe_t, G_N_ELEMENTS (pe_t) },
    { "cantilever", "tip position (m)", 0.2, 10, cantilever, 2, tip, ca_n, G_N_ELEMENTS (ca_n), 0.004,
      quick ? 4 : 6, 3, 32, 48, FX_INTEGRATOR_GAUSS4, 0.004 / 128, ca_t, G_N_ELEMENTS (ca_t) },
    { "four-bar", "rocker angle (rad)", 1.0, 20, four_bar, 1, rocker_angle, fb_n,
      G_N_ELEMENTS (fb_n), 0.01, quick ? 4 : 5, 3, 20, 30, FX_INTEGRATOR_GAUSS4, 0.01 / 64, fb_t,
      G_N_ELEMENTS (fb_t) },
  };
  printf ("work-precision: error against a converged reference versus CPU time (%s sweep)\n",
          quick ? "quick" : "full");
  guint swept = 0;
  for (guint i = 0; i < G_N_ELEMENTS (problems); i++)
    if (only == NULL || strcmp (only, problems[i].name) == 0)
      {
        sweep (&problems[i], svg_dir);
        swept++;
      }
  if (swept == 0)
    {
      fprintf (stderr, "bench-work-precision: no problem called \"%s\" "
               "(spaghetti, pendulum, cantilever, four-bar)\n", only);
      return 2;
    }
  return 0;
}
