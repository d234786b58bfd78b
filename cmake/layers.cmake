# pdl_scale_public_headers(TARGET FOLDER): TARGET exports FOLDER's headers, and no other
# folder's, as "FOLDER/name.hpp". A target then sees the headers of the libraries it links and
# no others, so an include that goes up a layer (or to a library it does not link) fails to
# compile: the build itself keeps the data flowing one way. Each folder gets a directory
# build/include/FOLDER holding one link, FOLDER -> the source folder.
# pdl_scale_private_headers(TARGET FOLDER): TARGET (a test or benchmark program) may include
# FOLDER's headers, e.g. the shared test builders of tests/support.
function(pdl_scale_headers target folder scope)
  set(root ${PROJECT_BINARY_DIR}/include/${folder})
  if(NOT EXISTS ${root}/${folder})
    file(MAKE_DIRECTORY ${root})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
  endif()
  target_include_directories(${target} ${scope} ${root})
endfunction()

function(pdl_scale_public_headers target folder)
  # A header-only library (outcome) has no sources of its own: its headers are all interface.
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    pdl_scale_headers(${target} ${folder} INTERFACE)
  else()
    pdl_scale_headers(${target} ${folder} PUBLIC)
  endif()
endfunction()

function(pdl_scale_private_headers target folder)
  pdl_scale_headers(${target} ${folder} PRIVATE)
endfunction()
