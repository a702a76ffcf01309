# portcheck_embed_files(OUTPUT <cpp> SYMBOL <name> BASE <dir> FILES <files...>)
# Generates a C++ source defining
#   const portcheck::EmbeddedFile <name>[]; const std::size_t <name>Count;
# holding each file's path relative to BASE and its bytes, regenerated when any file changes.
function(portcheck_embed_files)
  cmake_parse_arguments(E "" "OUTPUT;SYMBOL;BASE" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${E_OUTPUT} -DSYMBOL=${E_SYMBOL} -DBASE=${E_BASE}
            "-DFILES=${E_FILES}" -P ${CMAKE_SOURCE_DIR}/cmake/embed_files_script.cmake
    DEPENDS ${E_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed_files_script.cmake
    COMMENT "Embedding ${E_SYMBOL}"
    VERBATIM)
endfunction()
