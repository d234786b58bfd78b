# One golden test of a bad measured-data file: runs `pdl-scale INPUT --check` and requires
# exit status 2 and a first diagnostic line equal to the first line of EXPECTED. Unlike
# golden.cmake the whole line is expected: it usually names the data file, not INPUT.
#   cmake -DPDL_SCALE=... -DINPUT=... -DEXPECTED=... -P golden_data.cmake
execute_process(COMMAND ${PDL_SCALE} ${INPUT} --check
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 2)
  message(FATAL_ERROR "exit status ${status}, expected 2\nstderr:\n${err}")
endif()
file(READ ${EXPECTED} expected)
string(FIND "${expected}" "\n" newline)
string(SUBSTRING "${expected}" 0 ${newline} expected)
string(FIND "${err}" "\n" newline)
string(SUBSTRING "${err}" 0 ${newline} first)
if(NOT first STREQUAL "${expected}")
  message(FATAL_ERROR "first diagnostic line\n  ${first}\nexpected\n  ${expected}")
endif()
