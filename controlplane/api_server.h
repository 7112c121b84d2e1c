/* The API socket: many clients at once, none able to stall the control thread. */
#ifndef TERN_API_SERVER_H
#define TERN_API_SERVER_H

#include <stddef.h>

/* Listens on path with the given permissions (0660: root and group tern only). */
int api_server_start(const char *path, unsigned int mode, char *err, size_t errlen);
void api_server_stop(void);
unsigned int api_server_clients(void);

#endif
