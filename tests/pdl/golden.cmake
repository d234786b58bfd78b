# One golden test: runs `pdl-scale INPUT --check` and requires exit status 2 and a first
# diagnostic line equal to PREFIX followed by the first line of EXPECTED. PREFIX defaults to
# "INPUT:" (the diagnostic names the input); it is empty for bad measured-data files, whose
# diagnostic usually names the data file rather than the program.
#   cmake -DPDL_SCALE=... -DINPUT=... -DEXPECTED=... [-DPREFIX=] -P golden.cmake
if(NOT DEFINED PREFIX)
  set(PREFIX "${INPUT}:")
endif()
execute_process(COMMAND ${PDL_SCALE} ${INPUT} --check
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 2)
  message(FATAL_ERROR "exit status ${status}, expected 2\nstderr:\n${err}")
endif()
# file(READ), not file(STRINGS): messages contain ';', which lists would escape.
file(READ ${EXPECTED} expected)
string(FIND "${expected}" "\n" newline)
string(SUBSTRING "${expected}" 0 ${newline} expected)
string(FIND "${err}" "\n" newline)
string(SUBSTRING "${err}" 0 ${newline} first)
if(NOT first STREQUAL "${PREFIX}${expected}")
  message(FATAL_ERROR "first diagnostic line\n  ${first}\nexpected\n  ${PREFIX}${expected}")
endif()
