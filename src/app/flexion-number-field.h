/* flexion-number-field.h: number entry that cannot silently go wrong.
 *
 * Spin buttons of the inspector, the simulation bar, the preferences and
 * the export window accept the user's locale ("0,05" in German) and the C
 * form ("0.05", "2.1e11"). Text that does not parse, or a value outside
 * the field's range, is refused: the old value stays, the field is marked
 * in error and its tooltip says why, instead of the value being clamped
 * to the minimum. The mouse wheel scrolls the page under the pointer and
 * never changes a value.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Parses all of `text` (surrounding spaces allowed) as a finite number in
 * the locale's form or the C form. */
gboolean flexion_parse_number        (const char *text, double *value);

/* Makes `spin` such a field. With `engineering`, values are shown as %.6g
 * (2.1e+11, 0.005) rather than with the spin button's fixed digits. */
void     flexion_number_field_attach (GtkSpinButton *spin, gboolean engineering);

/* Why the field's last text was refused, or NULL when it was not. */
const char *flexion_number_field_get_error (GtkSpinButton *spin);

G_END_DECLS
