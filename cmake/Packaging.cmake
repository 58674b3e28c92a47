# Install rules and CPack: two Debian packages from one build (see docs/PACKAGING.md).
#   wrkbench-cli  component "cli": the CLI, its man page and the agent's systemd unit; no Qt, for loader VMs
#   wrkbench      component "gui": the GUI, desktop file, icons, AppStream metainfo, MIME type;
#                 depends on wrkbench-cli of the same version, so installing it gives GUI + CLI
# Each file lives in exactly one package, so the two never conflict and upgrades stay simple.
# Included last from the top-level CMakeLists.txt, so every target exists here.
include(GNUInstallDirs)

set(WB_APP_ID io.github.wrkbench.Wrkbench)
# Release date of PROJECT_VERSION, for the AppStream release entry and the man page: change it with the version.
set(WB_RELEASE_DATE 2026-11-30)
set(WB_PACKAGE_CONTACT "wrkbench maintainers <wrkbench@example.org>"
    CACHE STRING "Maintainer of the Debian packages (name <email>)")
# Sizes of the committed PNG icons (packaging/render-icons.sh renders them from the SVG).
set(WB_ICON_SIZES 16 22 24 32 48 64 128 256 512)

set(wbResources ${PROJECT_SOURCE_DIR}/resources)
set(wbPackagingOut ${PROJECT_BINARY_DIR}/packaging)

# --- cli: wrkbench-cli and its man page -------------------------------------------------------------------
install(TARGETS wrkbench-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)

configure_file(${PROJECT_SOURCE_DIR}/packaging/wrkbench-cli.1.in ${wbPackagingOut}/wrkbench-cli.1 @ONLY)
# Debian installs man pages gzip-compressed; -n keeps the archive free of time stamps (reproducible).
add_custom_command(OUTPUT ${wbPackagingOut}/wrkbench-cli.1.gz
    COMMAND gzip -9 -n -k -f ${wbPackagingOut}/wrkbench-cli.1
    DEPENDS ${wbPackagingOut}/wrkbench-cli.1
    COMMENT "Compressing the wrkbench-cli man page"
    VERBATIM)
add_custom_target(wrkbench-manpage ALL DEPENDS ${wbPackagingOut}/wrkbench-cli.1.gz)
install(FILES ${wbPackagingOut}/wrkbench-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli)
# The remote-loader agent as a systemd unit, installed disabled (docs/AGENT.md): Debian's
# systemd looks in /lib/systemd/system for packaged units.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/wrkbench-agent.service DESTINATION lib/systemd/system COMPONENT cli)

# --- gui: wrkbench and the desktop integration -----------------------------------------------------------
if(TARGET wrkbench)
    install(TARGETS wrkbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gui)
    install(FILES ${wbResources}/${WB_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications
        COMPONENT gui)
    configure_file(${wbResources}/${WB_APP_ID}.metainfo.xml.in ${wbPackagingOut}/${WB_APP_ID}.metainfo.xml @ONLY)
    install(FILES ${wbPackagingOut}/${WB_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo
        COMPONENT gui)
    install(FILES ${wbResources}/${WB_APP_ID}.mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME ${WB_APP_ID}.xml COMPONENT gui)
    install(FILES ${wbResources}/icons/${WB_APP_ID}.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        COMPONENT gui)
    foreach(size IN LISTS WB_ICON_SIZES)
        set(dir icons/hicolor/${size}x${size}/apps)
        install(FILES ${wbResources}/${dir}/${WB_APP_ID}.png DESTINATION ${CMAKE_INSTALL_DATADIR}/${dir} COMPONENT gui)
    endforeach()
    # The desktop database, the MIME database and the icon cache are refreshed by the dpkg triggers of
    # desktop-file-utils, shared-mime-info and hicolor-icon-theme: no maintainer scripts needed.
endif()

# --- CPack -----------------------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME wrkbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR wrkbench)
set(CPACK_PACKAGE_CONTACT "${WB_PACKAGE_CONTACT}")
# Empty on purpose: CPack would put this one line above both packages' descriptions. Each component's
# description below starts with its own synopsis line, as Debian wants.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")

set(CPACK_COMPONENTS_ALL cli)
if(TARGET wrkbench)
    list(APPEND CPACK_COMPONENTS_ALL gui)
endif()
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # wrkbench-cli_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# dpkg-shlibdeps computes Depends from the libraries the binaries really link: Qt only for the GUI.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# "gui" depends on "cli": the wrkbench package gets Depends: wrkbench-cli (= version).
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_CLI_PACKAGE_NAME wrkbench-cli)
set(CPACK_COMPONENT_CLI_DISPLAY_NAME "wrkbench-cli")
set(CPACK_DEBIAN_CLI_DESCRIPTION "HTTP load generator with wrk's command line (no GUI)
wrkbench-cli sends HTTP/1.1 load (keep-alive, pipelining, TLS) and prints
wrk's report. It takes wrk's flags and adds a constant-rate open model with
latency corrected for coordinated omission, JSON results, session files
shared with the wrkbench GUI, CSV export, import of old wrk logs, a
single-request probe and a built-in target server.
It needs no Qt and no display: the package for loader machines.")

set(CPACK_DEBIAN_GUI_PACKAGE_NAME wrkbench)
set(CPACK_COMPONENT_GUI_DISPLAY_NAME "wrkbench")
set(CPACK_COMPONENT_GUI_DEPENDS cli)
set(CPACK_DEBIAN_GUI_DESCRIPTION "HTTP load benchmarking workbench (GUI and CLI)
wrkbench runs HTTP load tests from a desktop application with live charts,
keeps every run in a session file and compares runs side by side, for
engineers who compare how a service holds up behind different front doors.
It brings wrkbench-cli, the same engine on the command line.")
# Plugins Qt loads at run time, which dpkg-shlibdeps cannot see: the platform plugin (xcb, wayland) and the
# SVG icon engine (the window icon is an SVG).
set(CPACK_DEBIAN_GUI_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6svg6")
set(CPACK_DEBIAN_GUI_PACKAGE_SECTION net)

include(CPack)
