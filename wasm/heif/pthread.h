/* wasm32-wasi has no threads, and wasi-libc no <pthread.h>; libde265's threads.cc still names these.
 * glimpse never starts libde265's worker threads (build.sh removes the one call that would), so the
 * mutexes guard nothing and may be no-ops. Creating a thread fails; waiting on a condition, which could
 * only happen with a worker running, traps instead of hanging. */
#ifndef GLIMPSE_PTHREAD_SHIM_H
#define GLIMPSE_PTHREAD_SHIM_H
#include <sys/types.h> /* wasi-libc declares the pthread types there */
static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) { (void)t; (void)a; (void)f; (void)arg; return 11; /* EAGAIN */ }
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
