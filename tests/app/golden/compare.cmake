# One golden command line: runs `pdl-scale ARGS` from the repository root and requires exit
# status 0 and a standard output equal, byte for byte, to the file EXPECTED.
#   cmake -DPDL_SCALE=... -DARGS="..." -DEXPECTED=... -P compare.cmake
separate_arguments(arguments UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${PDL_SCALE} ${arguments} --threads 2
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "exit status ${status}, expected 0\nstderr:\n${err}")
endif()
# JSON reports carry wall-clock seconds and the thread count asked for (the update script runs
# with every core, this test with two): both are normalised to 0 on either side.
string(REGEX REPLACE "\"seconds\": [-+0-9.eE]+" "\"seconds\": 0" out "${out}")
string(REGEX REPLACE "\"estimated_seconds\": [-+0-9.eE]+" "\"estimated_seconds\": 0" out "${out}")
string(REGEX REPLACE "\"threads\": [0-9]+" "\"threads\": 0" out "${out}")
# The command line the reports echo (CSV's "# command:" line, JSON's "command" array) ends with
# the "--threads 2" added here, which the update script does not add: dropped.
string(REPLACE " --threads 2\n" "\n" out "${out}")
string(REGEX REPLACE ",\n    \"--threads\",\n    \"2\"\n  \\]" "\n  ]" out "${out}")
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "the output differs from ${EXPECTED}\n--- got:\n${out}\n--- expected:\n${expected}")
endif()
