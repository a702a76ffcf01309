# tree-sitter grammars, pinned in package-lock.json and installed with `npm ci --ignore-scripts`.
set(PORTCHECK_GRAMMAR_ROOT ${CMAKE_SOURCE_DIR}/node_modules CACHE PATH "Folder holding the npm grammar packages")

set(_grammar_sources)
foreach(lang python cpp)
  set(_dir ${PORTCHECK_GRAMMAR_ROOT}/tree-sitter-${lang}/src)
  if(NOT EXISTS ${_dir}/parser.c)
    message(FATAL_ERROR "tree-sitter-${lang} grammar not found in ${_dir}: run `npm ci --ignore-scripts` first")
  endif()
  # parser.c through a wrapper that gives its lexer a faster character-set test, and Python's scanner.c
  # through one that keeps its buffers between tokens (harness/grammars/).
  set(_parser ${CMAKE_SOURCE_DIR}/harness/grammars/${lang}_parser.c)
  set(_scanner ${_dir}/scanner.c)
  if(EXISTS ${CMAKE_SOURCE_DIR}/harness/grammars/${lang}_scanner.c)
    set(_scanner ${CMAKE_SOURCE_DIR}/harness/grammars/${lang}_scanner.c)
  endif()
  list(APPEND _grammar_sources ${_parser} ${_scanner})
  set_source_files_properties(${_parser} ${_scanner} PROPERTIES
    INCLUDE_DIRECTORIES "${_dir};${CMAKE_SOURCE_DIR}/harness/grammars"
    OBJECT_DEPENDS "${_dir}/parser.c;${_dir}/scanner.c")
endforeach()

add_library(portcheck_grammars STATIC ${_grammar_sources})
# Never a unity batch: each generated parser.c defines the same static tables and lexer names.
set_target_properties(portcheck_grammars PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON UNITY_BUILD OFF)
# Generated parsers: their warnings are not ours. -O2: parsing is most of the lint time.
target_compile_options(portcheck_grammars PRIVATE -w -O2)
