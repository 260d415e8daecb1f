/* flexion-gallery.h: the examples gallery, a window of cards with a
 * thumbnail, name and description of every bundled mechanism.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLEXION_TYPE_GALLERY (flexion_gallery_get_type ())
G_DECLARE_FINAL_TYPE (FlexionGallery, flexion_gallery, FLEXION, GALLERY, AdwWindow)

/* A modal gallery of the *.flexion files in `examples_dir`, transient for
 * `parent`. Emits "example-activated" (GFile *file) when the user picks
 * one, then closes itself. */
GtkWidget *flexion_gallery_new (GtkWindow  *parent,
                                const char *examples_dir);

G_END_DECLS
