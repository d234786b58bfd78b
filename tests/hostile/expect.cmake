# One whole-process regression test: runs pdl-scale with ARGS (a ;-list) and requires exit
# status STATUS and stdout + stderr matching REGEX.
#   cmake -DPDL_SCALE=... "-DARGS=a;b;c" -DSTATUS=2 "-DREGEX=..." -P expect.cmake
execute_process(COMMAND ${PDL_SCALE} ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 60)
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "exit status ${status}, expected ${STATUS}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "the output does not match '${REGEX}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
