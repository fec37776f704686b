"""Runs a command once, its output to /dev/null, and writes one line to REPORT:
"cpu_seconds wall_seconds peak_kb exit_status" (CPU = user + sys of the command and of the
processes it waited for, to the microsecond, from wait4: /usr/bin/time prints hundredths,
a tenth of a 0.1 s run).
Usage: python3 Benchmarks/cputime.py REPORT COMMAND..."""
import os
import sys
import time

report, command = sys.argv[1], sys.argv[2:]
start = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        os.execvp(command[0], command)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.monotonic() - start
with open(report, "w") as f:
    f.write("%.4f %.4f %d %d\n" % (usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status)))
