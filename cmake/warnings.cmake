# Warnings shared by every target of the project.
add_library(pdl_scale_warnings INTERFACE)
target_compile_options(pdl_scale_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
