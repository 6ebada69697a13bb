#ifndef JACKWAVE_CCAIRO_SHIM_H
#define JACKWAVE_CCAIRO_SHIM_H
// cairo's declarations, but no link to libcairo: the binary dlopens it when a plot is drawn,
// so that recording, metering and start-up never map cairo and the libraries it pulls in
// (BENCHMARKS.md, footprint). Swift reaches cairo only through the table below.
#include <cairo/cairo.h>
#include <cairo/cairo-svg.h>
#include <dlfcn.h>
#include <stddef.h>

/// The library's name as Debian's libcairo2 installs it (its soname).
#define JACKWAVE_CAIRO_SONAME "libcairo.so.2"

/// Every cairo function jackwave calls, once. A call from Swift to a function not listed
/// here fails to link (nothing links libcairo), so the list cannot silently fall behind.
#define JACKWAVE_CAIRO_FUNCTIONS(X) \
  X(cairo_arc) X(cairo_clip) X(cairo_create) X(cairo_destroy) X(cairo_fill) \
  X(cairo_image_surface_create) X(cairo_image_surface_create_from_png) \
  X(cairo_image_surface_get_data) X(cairo_image_surface_get_height) \
  X(cairo_image_surface_get_stride) X(cairo_image_surface_get_width) \
  X(cairo_line_to) X(cairo_move_to) X(cairo_new_path) X(cairo_new_sub_path) X(cairo_paint) \
  X(cairo_rectangle) X(cairo_restore) X(cairo_save) X(cairo_select_font_face) X(cairo_set_dash) \
  X(cairo_set_font_size) X(cairo_set_line_cap) X(cairo_set_line_join) X(cairo_set_line_width) \
  X(cairo_set_source_rgba) X(cairo_show_text) X(cairo_status) X(cairo_status_to_string) \
  X(cairo_stroke) X(cairo_surface_destroy) X(cairo_surface_finish) X(cairo_surface_flush) \
  X(cairo_surface_status) X(cairo_surface_write_to_png_stream) X(cairo_svg_surface_create_for_stream) \
  X(cairo_svg_surface_set_document_unit) X(cairo_text_extents)

/// The cairo functions, one pointer each, named and typed as cairo declares them
/// (`__typeof__` takes the prototype from cairo's own header, so no signature is retyped).
typedef struct jackwave_cairo {
#define JACKWAVE_CAIRO_FIELD(name) __typeof__(&name) _Nonnull name;
  JACKWAVE_CAIRO_FUNCTIONS(JACKWAVE_CAIRO_FIELD)
#undef JACKWAVE_CAIRO_FIELD
} jackwave_cairo;

/// `dlopen` of libcairo.so.2 and `dlsym` of every function in the table. Returns NULL when
/// all were found, else `dlerror`'s message (the table is then not to be used). The library
/// stays loaded for the life of the process (never dlclosed).
static inline const char *jackwave_cairo_load(jackwave_cairo *table) {
  void *library = dlopen(JACKWAVE_CAIRO_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return dlerror();
#define JACKWAVE_CAIRO_LOOKUP(name) \
  table->name = (__typeof__(&name))dlsym(library, #name); \
  if (table->name == NULL) return dlerror();
  JACKWAVE_CAIRO_FUNCTIONS(JACKWAVE_CAIRO_LOOKUP)
#undef JACKWAVE_CAIRO_LOOKUP
  return NULL;
}

#endif
