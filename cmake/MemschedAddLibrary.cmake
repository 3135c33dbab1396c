#===- MemschedAddLibrary.cmake - Library helper -----------------------------===#
#
# memsched's libraries are static archives that link against Debian's shared
# libMLIR.so (target `MLIR`), so every executable and the Python module share one
# copy of MLIR's global registries and links stay fast on small machines.
#
#===----------------------------------------------------------------------===#

# memsched_add_library(<name> SOURCES <src>... [DEPENDS <target>...]
#                      [LINK_LIBS <lib>...] [NO_MLIR] [NO_INSTALL])
# NO_INSTALL keeps a library for the project's own tests and benchmarks out of
# the installed package.
function(memsched_add_library name)
  cmake_parse_arguments(ARG "NO_MLIR;NO_INSTALL" "" "SOURCES;DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(memsched::${name} ALIAS ${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  if(NOT ARG_NO_MLIR)
    target_link_libraries(${name} PUBLIC MLIR LLVM)
  endif()
  if(ARG_LINK_LIBS)
    target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  endif()
  if(NOT ARG_NO_INSTALL)
    set_property(GLOBAL APPEND PROPERTY MEMSCHED_EXPORTED_LIBS ${name})
  endif()
endfunction()
