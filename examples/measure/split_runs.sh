#!/bin/sh
# Splits examples/measure/jacobi_runs.csv into the calibration runs (every size at 1 thread, the
# sizes up to 512 at 2 threads) and the validation runs (the rest), docs/measured.md section 6.
# Run from the repository root: sh examples/measure/split_runs.sh
set -e
split_runs() {  # $1: calibrate or validate; the runs file's comments and header are copied
  awk -F' *, *' -v want="$1" '
    NR == 1 && want == "calibrate" {
      print "# Calibration runs of jacobi_runs.csv: every size at 1 thread, and the three smallest sizes"
      print "# (256, 362, 512) at 2 threads. The smallest thread count on 2 processors is 1, where a barrier"
      print "# costs nothing (docs/semantics.md B1): the 1-thread runs give the sequential costs at every"
      print "# size, the small sizes at 2 threads the barrier. The rest, the sizes 724 to 2048 at 2 threads,"
      print "# is jacobi_runs_validate.csv: it tests the parallel part of the model at sizes it was not"
      print "# calibrated on in parallel. Split by examples/measure/split_runs.sh."
      print "#"
    }
    NR == 1 && want == "validate" {
      print "# Validation runs of jacobi_runs.csv: the sizes 724 to 2048 at 2 threads, the runs that"
      print "# jacobi_runs_calibrate.csv (every size at 1 thread, 256 to 512 at 2 threads) leaves out: a"
      print "# model calibrated on the fewest threads and the small sizes predicts 2 threads at the larger"
      print "# sizes. Split by examples/measure/split_runs.sh."
      print "#"
    }
    !header { print; if ($0 !~ /^#/ && NF > 0) header = 1; next }
    { calibrate = ($1 == 1 || $2 <= 512); if ((want == "calibrate") == calibrate) print }
  ' examples/measure/jacobi_runs.csv > examples/measure/jacobi_runs_$1.csv
}
split_runs calibrate
split_runs validate
