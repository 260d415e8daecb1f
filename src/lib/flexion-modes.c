/* flexion-modes.c: FlexionModes, the linear modes of a model
 * (flexion-modes.h), computed by fx_modes_compute as `flexion-cli modes`
 * computes them. */
#include "flexion-private.h"
#include "fx-modes.h"

/**
 * FlexionModes:
 *
 * The linear modes of a model about its drawn configuration: vibrations
 * (frequencies in Hz, by rising frequency), motions (their count is the
 * mobility) and self-stress states (their count is the degree of static
 * indeterminacy), as `flexion-cli modes` lists them, with the same numbers.
 *
 * Modes are numbered 0 .. n_modes − 1 in the list's order: motions, then
 * self-stress states, then vibrations, then regularisation modes.
 *
 * ```python
 * modes = Flexion.Modes.new(model, 3, None)
 * print(modes.get_frequencies(Flexion.ModeKind.VIBRATION))
 * ```
 */
struct _FlexionModes {
  GObject parent_instance;
  FlexionModel *model;  /* a copy */
  FxModes *modes;
};

G_DEFINE_FINAL_TYPE (FlexionModes, flexion_modes, G_TYPE_OBJECT)

static void
flexion_modes_finalize (GObject *object)
{
  FlexionModes *self = FLEXION_MODES (object);

  g_clear_pointer (&self->modes, fx_modes_free);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (flexion_modes_parent_class)->finalize (object);
}

static void
flexion_modes_class_init (FlexionModesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flexion_modes_finalize;
}

static void
flexion_modes_init (FlexionModes *self)
{
}

/**
 * flexion_modes_new:
 * @model: the model (copied)
 * @max_vibrations: the vibration modes to keep, lowest first (0: all;
 *   `flexion-cli modes --count`, 10 by default there)
 * @cancellable: (nullable): stops the build of the model's system; the
 *   eigensolver itself runs to its end, and a cancellation meanwhile is
 *   reported after it
 * @error: return location for an error
 *
 * Computes the modes: densely up to 2000 unknowns (everything), beyond by
 * shift-invert iteration (the lowest vibrations only, not counted).
 *
 * Returns: (transfer full): the modes, or %NULL with the sentence
 *   `flexion-cli modes` prints in @error
 */
FlexionModes *
flexion_modes_new (FlexionModel *model, guint max_vibrations, GCancellable *cancellable,
                   GError **error)
{
  FlexionModes *self;
  FlexionCancel scope;
  GError *local = NULL;
  FxModes *modes;

  g_return_val_if_fail (FLEXION_IS_MODEL (model), NULL);
  if (flexion_cancel_check (cancellable, error))
    return NULL;
  flexion_cancel_begin (&scope, cancellable);
  modes = fx_modes_compute (flexion_model_peek (model), max_vibrations, &local);
  flexion_cancel_end (&scope);
  if (modes == NULL)
    {
      FlexionError code = FLEXION_ERROR_INVALID;
      if (g_error_matches (local, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE))
        code = FLEXION_ERROR_TOO_LARGE;
      else if (g_error_matches (local, FX_MODES_ERROR, FX_MODES_ERROR_FAILED))
        code = FLEXION_ERROR_SOLVER;
      flexion_propagate_core_error (error, local, code);
      return NULL;
    }
  if (flexion_cancel_check (cancellable, error))
    {
      fx_modes_free (modes);
      return NULL;
    }
  self = g_object_new (FLEXION_TYPE_MODES, NULL);
  self->model = flexion_model_copy (model);
  self->modes = modes;
  return self;
}

static const FxMode *
mode_at (FlexionModes *self, guint mode)
{
  return mode < self->modes->n_modes ? &self->modes->modes[mode] : NULL;
}

/**
 * flexion_modes_get_n_modes:
 * @self: the modes
 *
 * Gets the number of modes.
 *
 * Returns: how many modes the list has
 */
guint
flexion_modes_get_n_modes (FlexionModes *self)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), 0);
  return self->modes->n_modes;
}

/**
 * flexion_modes_get_kind:
 * @self: the modes
 * @mode: 0 .. n_modes − 1
 *
 * Gets what kind of mode a mode is.
 *
 * Returns: what mode @mode is
 */
FlexionModeKind
flexion_modes_get_kind (FlexionModes *self, guint mode)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), FLEXION_MODE_KIND_VIBRATION);
  g_return_val_if_fail (mode < self->modes->n_modes, FLEXION_MODE_KIND_VIBRATION);
  return (FlexionModeKind) mode_at (self, mode)->kind;
}

/**
 * flexion_modes_get_index:
 * @self: the modes
 * @mode: 0 .. n_modes − 1
 *
 * Gets a mode's number within its kind.
 *
 * Returns: the mode's number within its kind, from 1 ("mode 2",
 *   "motion 1"), as `flexion-cli modes` numbers it
 */
guint
flexion_modes_get_index (FlexionModes *self, guint mode)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), 0);
  g_return_val_if_fail (mode < self->modes->n_modes, 0);
  return mode_at (self, mode)->index;
}

/**
 * flexion_modes_get_frequency:
 * @self: the modes
 * @mode: 0 .. n_modes − 1
 *
 * Gets a mode's frequency.
 *
 * Returns: the mode's frequency, Hz (0 for motions and self-stress states)
 */
double
flexion_modes_get_frequency (FlexionModes *self, guint mode)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), 0.0);
  g_return_val_if_fail (mode < self->modes->n_modes, 0.0);
  return mode_at (self, mode)->frequency;
}

/**
 * flexion_modes_get_frequencies:
 * @self: the modes
 * @kind: which modes
 * @n_values: (out): how many there are
 *
 * Gets the frequencies of every mode of one kind.
 *
 * Returns: (array length=n_values) (transfer full): the frequencies (Hz) of
 *   the modes of @kind, in the list's order (vibrations: rising)
 */
double *
flexion_modes_get_frequencies (FlexionModes *self, FlexionModeKind kind, gsize *n_values)
{
  double *out;
  gsize n = 0;

  g_return_val_if_fail (FLEXION_IS_MODES (self), NULL);
  out = g_new (double, MAX (self->modes->n_modes, 1));
  for (guint i = 0; i < self->modes->n_modes; i++)
    if ((FlexionModeKind) self->modes->modes[i].kind == kind)
      out[n++] = self->modes->modes[i].frequency;
  *n_values = n;
  return out;
}

/**
 * flexion_modes_get_label:
 * @self: the modes
 * @mode: 0 .. n_modes − 1
 *
 * Gets a mode's label, as the app and the CLI's animations show it.
 *
 * Returns: (transfer full): "mode 2 · 13.7 Hz", "mechanism mode 1",
 *   "self-stress state 1" ...
 */
char *
flexion_modes_get_label (FlexionModes *self, guint mode)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), NULL);
  g_return_val_if_fail (mode < self->modes->n_modes, NULL);
  return fx_mode_label (self->modes, mode_at (self, mode));
}

/**
 * flexion_modes_find:
 * @self: the modes
 * @name: as `flexion-cli modes --mode` takes it: "3" (vibration 3),
 *   "motion:1", "self-stress:2" or "regularisation:1"
 * @error: return location for an error
 *
 * Finds a mode by the name `flexion-cli modes --mode` takes.
 *
 * Returns: the mode's place in the list, or -1 with @error set
 */
int
flexion_modes_find (FlexionModes *self, const char *name, GError **error)
{
  GError *local = NULL;
  int index;

  g_return_val_if_fail (FLEXION_IS_MODES (self), -1);
  index = fx_modes_find (self->modes, name ? name : "", &local);
  if (index < 0)
    flexion_propagate_core_error (error, local, FLEXION_ERROR_NOT_FOUND);
  return index;
}

/**
 * flexion_modes_get_counted:
 * @self: the modes
 *
 * Tells whether the motions and self-stress states were counted.
 *
 * Returns: whether motions and self-stress states were counted (the dense
 *   solve); %FALSE when only the lowest vibrations were found
 */
gboolean
flexion_modes_get_counted (FlexionModes *self)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), FALSE);
  return self->modes->counted;
}

/**
 * flexion_modes_get_mobility:
 * @self: the modes
 *
 * Gets the mobility: the number of motions.
 *
 * Returns: the number of motions (rigid-body and mechanism motions)
 */
guint
flexion_modes_get_mobility (FlexionModes *self)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), 0);
  return self->modes->mobility;
}

/**
 * flexion_modes_get_self_stress:
 * @self: the modes
 *
 * Gets the number of self-stress states.
 *
 * Returns: the number of self-stress states: the degree of static
 *   indeterminacy
 */
guint
flexion_modes_get_self_stress (FlexionModes *self)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), 0);
  return self->modes->indeterminacy;
}

/**
 * flexion_modes_get_n_unknowns:
 * @self: the modes
 *
 * Gets the size of the linearised system.
 *
 * Returns: the unknowns of the linearised system
 */
guint
flexion_modes_get_n_unknowns (FlexionModes *self)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), 0);
  return self->modes->n_unknowns;
}

/**
 * flexion_modes_get_summary:
 * @self: the modes
 *
 * Sums the modes up in a line.
 *
 * Returns: (transfer full): "mobility 1 · statically determinate" and the
 *   like, the first line of `flexion-cli modes`
 */
char *
flexion_modes_get_summary (FlexionModes *self)
{
  g_return_val_if_fail (FLEXION_IS_MODES (self), NULL);
  return fx_modes_summary (self->modes);
}

/**
 * flexion_modes_get_shape:
 * @self: the modes
 * @mode: 0 .. n_modes − 1
 * @value: what to read at each node
 * @n_values: (out): the model's nodes, link after link
 *
 * A mode's shape at every node of the drawn model, link after link in
 * file order (the rows of `flexion-cli modes --shapes` for that mode).
 *
 * Returns: (array length=n_values) (transfer full): the values
 */
double *
flexion_modes_get_shape (FlexionModes *self, guint mode, FlexionShapeValue value,
                         gsize *n_values)
{
  const FxMode *m;
  guint n;
  double *out;

  g_return_val_if_fail (FLEXION_IS_MODES (self), NULL);
  *n_values = 0;
  g_return_val_if_fail (mode < self->modes->n_modes, NULL);
  g_return_val_if_fail ((guint) value < FX_MODE_SHAPE_STRIDE, NULL);
  m = mode_at (self, mode);
  n = self->modes->n_nodes;
  out = g_new (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    out[i] = m->shape[(gsize) FX_MODE_SHAPE_STRIDE * i + value];
  *n_values = n;
  return out;
}

/**
 * flexion_modes_get_link_shape:
 * @self: the modes
 * @mode: 0 .. n_modes − 1
 * @link: a link's id
 * @value: what to read at each node
 * @n_values: (out): the link's nodes
 * @error: return location for an error
 *
 * Gets a mode's shape along one link.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): a mode's
 *   shape at the nodes of one link, from its `from` joint to its `to` joint
 */
double *
flexion_modes_get_link_shape (FlexionModes *self, guint mode, const char *link,
                              FlexionShapeValue value, gsize *n_values, GError **error)
{
  const FxModes *ms;
  double *out;
  int l;

  g_return_val_if_fail (FLEXION_IS_MODES (self), NULL);
  *n_values = 0;
  g_return_val_if_fail (mode < self->modes->n_modes, NULL);
  g_return_val_if_fail ((guint) value < FX_MODE_SHAPE_STRIDE, NULL);
  ms = self->modes;
  l = fx_model_find_link (flexion_model_peek (self->model), link ? link : "");
  if (l < 0 || (guint) l >= ms->n_links)
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND, "the model has no link \"%s\"",
                   link ? link : "(null)");
      return NULL;
    }
  out = g_new (double, MAX (ms->link_nodes[l], 1));
  for (guint i = 0; i < ms->link_nodes[l]; i++)
    out[i] = ms->modes[mode].shape[(gsize) FX_MODE_SHAPE_STRIDE * (ms->link_first[l] + i) + value];
  *n_values = ms->link_nodes[l];
  return out;
}

/**
 * flexion_modes_write_csv:
 * @self: the modes
 * @path: (type filename): where to write
 * @error: return location for an error
 *
 * Writes the frequency table (mode,frequency_hz,kind), the same bytes as
 * `flexion-cli modes --csv`.
 *
 * Returns: %TRUE on success
 */
gboolean
flexion_modes_write_csv (FlexionModes *self, const char *path, GError **error)
{
  GError *local = NULL;

  g_return_val_if_fail (FLEXION_IS_MODES (self), FALSE);
  if (fx_modes_write_csv (self->modes, flexion_model_peek (self->model), path, &local))
    return TRUE;
  flexion_propagate_core_error (error, local, FLEXION_ERROR_IO);
  return FALSE;
}

/**
 * flexion_modes_write_shapes:
 * @self: the modes
 * @path: (type filename): where to write
 * @error: return location for an error
 *
 * Writes the nodal shapes, the same bytes as `flexion-cli modes --shapes`.
 *
 * Returns: %TRUE on success
 */
gboolean
flexion_modes_write_shapes (FlexionModes *self, const char *path, GError **error)
{
  GError *local = NULL;

  g_return_val_if_fail (FLEXION_IS_MODES (self), FALSE);
  if (fx_modes_write_shapes (self->modes, flexion_model_peek (self->model), path, &local))
    return TRUE;
  flexion_propagate_core_error (error, local, FLEXION_ERROR_IO);
  return FALSE;
}
