/*
 * sweep_cache.c -- one preset per distinct set of overrides.  See
 * sweep_cache.h.
 */
#include "config.h"

#include "models/preset.h"
#include "models/sweep_cache.h"

typedef struct {
    Preset *preset;     /* or NULL and: */
    GError *error;
} Entry;

struct SweepCache {
    char *gpu;
    char *config;
    GStrv sets;
    GMutex lock;
    GHashTable *entries;    /* overrides joined by '\n' -> Entry */
};

static void
entry_free (gpointer data)
{
    Entry *e = data;
    preset_free (e->preset);
    g_clear_error (&e->error);
    g_free (e);
}

SweepCache *
sweep_cache_new (const char *gpu, const char *config, const char *const *sets)
{
    SweepCache *c = g_new0 (SweepCache, 1);
    c->gpu = g_strdup (gpu);
    c->config = g_strdup (config);
    c->sets = g_strdupv ((char **) sets);
    g_mutex_init (&c->lock);
    c->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        entry_free);
    return c;
}

void
sweep_cache_free (SweepCache *c)
{
    if (c == NULL)
        return;
    g_hash_table_unref (c->entries);
    g_mutex_clear (&c->lock);
    g_strfreev (c->sets);
    g_free (c->gpu);
    g_free (c->config);
    g_free (c);
}

static Entry *
load (const SweepCache *c, const char *const *overrides)
{
    g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
    if (c->sets != NULL)
        g_strv_builder_addv (b, (const char **) c->sets);
    g_strv_builder_addv (b, (const char **) overrides);
    g_auto (GStrv) sets = g_strv_builder_end (b);
    Entry *e = g_new0 (Entry, 1);
    e->preset = preset_load (c->gpu, c->config, (const char *const *) sets,
                             &e->error);
    return e;
}

const GpuSpec *
sweep_cache_spec (SweepCache *c, const char *const *overrides, GError **error)
{
    static const char *const none[] = { NULL };
    g_autofree char *id = g_strjoinv ("\n", (char **) (overrides ? overrides
                                                                 : none));
    g_mutex_lock (&c->lock);
    Entry *e = g_hash_table_lookup (c->entries, id);
    g_mutex_unlock (&c->lock);
    if (e == NULL) {
        /* Loaded outside the lock, so threads load different GPUs at
         * once; a GPU two threads loaded together is kept once. */
        Entry *mine = load (c, overrides ? overrides : none);
        g_mutex_lock (&c->lock);
        e = g_hash_table_lookup (c->entries, id);
        if (e == NULL) {
            e = mine;
            g_hash_table_insert (c->entries, g_steal_pointer (&id), e);
        } else {
            entry_free (mine);
        }
        g_mutex_unlock (&c->lock);
    }
    if (e->preset == NULL) {
        g_propagate_error (error, g_error_copy (e->error));
        return NULL;
    }
    return preset_spec (e->preset);
}
