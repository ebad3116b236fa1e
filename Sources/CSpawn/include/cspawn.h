#ifndef CSPAWN_H
#define CSPAWN_H
#include <spawn.h>

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's Glibc module does not
/// show: the child closes every descriptor from `from` on, without the parent listing them.
int cspawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif
