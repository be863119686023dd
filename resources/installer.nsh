; Included by electron-builder in the installer and the uninstaller (the default `nsis.include`,
; installer.nsh in the build resources). Before files are replaced or removed, the running app is
; asked to quit and given time for its clean stop (the core finishes the send in progress and
; commits its queue). electron-builder's own check, kept as the fallback below, stops the app with
; PowerShell's Stop-Process, an immediate kill (app-builder-lib 26,
; templates/nsis/include/allowOnlyOneInstallerInstance.nsh, CHECK_APP_RUNNING and KILL_PROCESS).
;
; The request: a second start with --quit reaches the running app through its single-instance
; lock and ends at once (electron/secondStart.ts); the running app then quits cleanly.

; electron-builder declares these only when no customCheckAppRunning is defined, and its
; _CHECK_APP_RUNNING, the fallback, needs them.
!include "getProcessInfo.nsh"
Var pid

!macro customCheckAppRunning
  !insertmacro IS_POWERSHELL_AVAILABLE
  !insertmacro FIND_PROCESS "${APP_EXECUTABLE_FILENAME}" $R0
  ${if} $R0 == 0
  ${andIf} ${FileExists} "$INSTDIR\${APP_EXECUTABLE_FILENAME}"
    DetailPrint "Asking ${PRODUCT_NAME} to stop..."
    ExecWait '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" --quit'
    ; Up to 30 s: the core's clean stop, a send in progress included.
    StrCpy $R1 0
    waitForCleanStop:
      Sleep 500
      IntOp $R1 $R1 + 1
      !insertmacro FIND_PROCESS "${APP_EXECUTABLE_FILENAME}" $R0
      ${if} $R0 == 0
      ${andIf} $R1 < 60
        Goto waitForCleanStop
      ${endIf}
  ${endIf}
  ; Still running (or an older version that knows no --quit): electron-builder's own check.
  !insertmacro _CHECK_APP_RUNNING
!macroend
