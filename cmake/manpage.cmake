# hiera_install_man_page(NAME.SECTION): installs the roff page NAME.SECTION of the calling folder,
# compressed as Debian policy asks (gzip -9n, so that the package builds reproducibly), into
# share/man/manSECTION.
find_program(HIERA_GZIP gzip)

function(hiera_install_man_page page)
  string(REGEX REPLACE "^.*\\.([0-9])$" "\\1" section ${page})
  set(source ${CMAKE_CURRENT_SOURCE_DIR}/${page})
  if(HIERA_GZIP)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/${page}.gz)
    add_custom_command(OUTPUT ${output}
      COMMAND ${HIERA_GZIP} -9n -c ${source} > ${output}
      DEPENDS ${source}
      COMMENT "Compressing the man page ${page}"
      VERBATIM)
    add_custom_target(man_${page} ALL DEPENDS ${output})
  else()
    set(output ${source})
  endif()
  install(FILES ${output} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
endfunction()
