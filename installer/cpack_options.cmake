# Per-generator CPack settings (CPACK_PROJECT_CONFIG_FILE).
# The archive holds the relocatable files only: the systemd unit and /etc
# (component "system", absolute paths) are for the Debian package.
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_ARCHIVE_COMPONENT_INSTALL ON)
  set(CPACK_COMPONENTS_ALL Unspecified)
  set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
  set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY ON)
endif()
