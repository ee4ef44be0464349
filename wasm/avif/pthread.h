/* wasm32-wasi has no threads, and wasi-libc no <pthread.h>. decode.c opens dav1d with one thread and a
 * frame delay of 1, where dav1d starts no worker and takes no lock; its dav1d_open still sets up thread
 * attributes and a once-flag, which these stand-ins serve. Creating a thread fails (dav1d_open would
 * then fail cleanly); waiting on a condition, which needs a worker, traps instead of hanging. */
#ifndef GLIMPSE_PTHREAD_SHIM_H
#define GLIMPSE_PTHREAD_SHIM_H
#include <stddef.h>
#include <sys/types.h> /* wasi-libc declares the pthread types there */
#define PTHREAD_ONCE_INIT 0
static inline int pthread_once(pthread_once_t *once, void (*init)(void)) {
  if (*once == 0) { *once = 1; init(); }
  return 0;
}
static inline int pthread_attr_init(pthread_attr_t *a) { (void)a; return 0; }
static inline int pthread_attr_destroy(pthread_attr_t *a) { (void)a; return 0; }
static inline int pthread_attr_setstacksize(pthread_attr_t *a, size_t s) { (void)a; (void)s; return 0; }
static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) { (void)t; (void)a; (void)f; (void)arg; return 6; /* EAGAIN */ }
static inline int pthread_join(pthread_t t, void **r) { (void)t; (void)r; return 0; }
static inline int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) { (void)m; (void)a; return 0; }
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) { (void)c; (void)a; return 0; }
static inline int pthread_cond_destroy(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_broadcast(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_signal(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { (void)c; (void)m; __builtin_trap(); }
#endif
