# CMake package file for the retroanim C ABI: install it as
# <prefix>/lib/cmake/retroanim/retroanimConfig.cmake beside the layout of
# retroanim.pc.in (lib/libretroanim_ffi.so, lib/libretroanim_ffi.a,
# include/retroanim.h). Then, in a host's CMakeLists.txt:
#   find_package(retroanim REQUIRED)
#   target_link_libraries(my_server PRIVATE retroanim::retroanim)         # shared
#   target_link_libraries(my_tool PRIVATE retroanim::retroanim_static)    # static
get_filename_component(_retroanim_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET retroanim::retroanim)
  add_library(retroanim::retroanim SHARED IMPORTED)
  set_target_properties(retroanim::retroanim PROPERTIES
    IMPORTED_LOCATION "${_retroanim_prefix}/lib/libretroanim_ffi.so"
    IMPORTED_NO_SONAME FALSE
    INTERFACE_INCLUDE_DIRECTORIES "${_retroanim_prefix}/include")
endif()

if(NOT TARGET retroanim::retroanim_static)
  add_library(retroanim::retroanim_static STATIC IMPORTED)
  set_target_properties(retroanim::retroanim_static PROPERTIES
    IMPORTED_LOCATION "${_retroanim_prefix}/lib/libretroanim_ffi.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_retroanim_prefix}/include"
    INTERFACE_LINK_LIBRARIES "pthread;dl;m")
endif()

set(retroanim_FOUND TRUE)
unset(_retroanim_prefix)
