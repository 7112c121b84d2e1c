# gdb -p PID -batch -nx -x bench/gdb_heap_calls.py, with TIDS (thread ids, separated by commas)
# and SECS in the environment: counts each thread's calls into the heap allocators (libc's
# and DPDK's) and mmap for SECS seconds, then prints one line per thread, "heap TID N
# {function: calls}", and detaches. Every thread's calls stop the process for a moment, the
# others' are let go at once. The run ends at the first epoll wait after SECS (ternd's
# control thread waits at least every 100 ms): gdb's interrupt would send SIGINT, which
# ternd's signalfd would then read as an order to stop.
import os
import time

import gdb

tids = [int(t) for t in os.environ["TIDS"].split(",")]
secs = float(os.environ.get("SECS", "1"))
counts = {t: {} for t in tids}
gdb.execute("set pagination off")
known = {t.ptid[1] for t in gdb.selected_inferior().threads()}
missing = [t for t in tids if t not in known]
if missing:
    raise gdb.GdbError("no thread %s in the process" % missing)


class Count(gdb.Breakpoint):
    def stop(self):
        tid = gdb.selected_thread().ptid[1]
        if tid in counts:
            counts[tid][self.location] = counts[tid].get(self.location, 0) + 1
        return False


for f in ("malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc",
          "rte_malloc", "rte_zmalloc", "rte_calloc", "rte_realloc", "rte_free",
          "rte_malloc_socket", "rte_zmalloc_socket", "mmap", "mmap64", "munmap"):
    try:
        Count(f, internal=True)
    except gdb.error:
        pass    # not in this process


class Deadline(gdb.Breakpoint):
    def stop(self):
        return time.monotonic() >= deadline


deadline = time.monotonic() + secs
for f in ("epoll_wait", "epoll_pwait"):
    try:
        Deadline(f, internal=True)
    except gdb.error:
        pass
gdb.execute("continue")
for t in tids:
    print("heap %d %d %s" % (t, sum(counts[t].values()), counts[t]))
