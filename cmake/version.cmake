# Writes OUTPUT from core/version.hpp.in with the commit the source tree is at, so that
# --version says where a binary came from. Run at configure time and again at every build
# (the commit moves without a reconfigure); configure_file leaves OUTPUT untouched when
# nothing changed, so nothing recompiles then.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DPROJECT_VERSION=... -P cmake/version.cmake
set(RIO_GIT_COMMIT unknown)
find_program(RIO_GIT git)
if(RIO_GIT)
  # Only this tree's own repository: a tarball unpacked inside some other checkout is not
  # that checkout's commit. safe.directory: a CI checkout may belong to another user.
  execute_process(COMMAND ${RIO_GIT} -c safe.directory=${SOURCE_DIR} -C ${SOURCE_DIR}
                          rev-parse --show-toplevel
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE failed ERROR_QUIET)
  if(NOT failed)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(NOT failed AND top STREQUAL source)
    execute_process(COMMAND ${RIO_GIT} -c safe.directory=${SOURCE_DIR} -C ${SOURCE_DIR}
                            describe --always --dirty --abbrev=12
                    OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE failed ERROR_QUIET)
    if(NOT failed AND described)
      set(RIO_GIT_COMMIT "${described}")
    endif()
  endif()
endif()
configure_file(${SOURCE_DIR}/core/version.hpp.in ${OUTPUT} @ONLY)
