/* wasm32-wasi has no threads, and Debian's libc++ for it is built without them, so <mutex> declares
 * nothing. libde265 and libheif lock a mutex around one-time initialisation; with a single thread
 * those locks guard nothing, so these stand-ins do nothing. Force-included into the library sources. */
#ifndef GLIMPSE_NO_THREADS_H
#define GLIMPSE_NO_THREADS_H
#ifdef __cplusplus
namespace std {
class mutex {
 public:
  void lock() {}
  void unlock() {}
};
class recursive_mutex {
 public:
  void lock() {}
  void unlock() {}
};
template <class Mutex>
class lock_guard {
 public:
  explicit lock_guard(Mutex &mutex) : mutex_(mutex) { mutex_.lock(); }
  ~lock_guard() { mutex_.unlock(); }
  lock_guard(const lock_guard &) = delete;
  lock_guard &operator=(const lock_guard &) = delete;

 private:
  Mutex &mutex_;
};
}  // namespace std
#endif
#endif
