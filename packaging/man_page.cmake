# cmake -P: writes port-check.1.gz from the page the binary generates from its command line
# (`port-check --man-page DATE`) and the hand-written sections (port-check.sections.man).
#   -DPORT_CHECK=<binary> -DSECTIONS=<file> -DDATE=<YYYY-MM-DD> -DOUTPUT=<dir>/port-check.1
execute_process(COMMAND ${PORT_CHECK} --man-page ${DATE}
                OUTPUT_VARIABLE page RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PORT_CHECK} --man-page failed (${status}): ${errors}")
endif()
file(READ ${SECTIONS} sections)
file(WRITE ${OUTPUT} "${page}${sections}")
execute_process(COMMAND gzip -9nf ${OUTPUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gzip ${OUTPUT} failed")
endif()
