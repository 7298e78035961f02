; Inno Setup 6.3+ script: a Windows installer for the PyInstaller one-folder bundle.
;
; Build on Windows, from the repository root, after the bundle (see installer/README.md):
;   pyinstaller --noconfirm --clean --distpath dist --workpath build\pyinstaller installer\tafl_desktop.spec
;   iscc /DAppVersion=0.1.0 installer\windows\tafl_desktop.iss
; Output: dist\tafl-desktop-<version>-windows-x64-setup.exe
;
; What it does: copies dist\tafl-desktop\ (tafl-desktop.exe, the console tafl-desktop-cli.exe and
; _internal\) into Program Files (or the user's own programs folder when installed without admin rights),
; adds a Start-menu shortcut and a desktop shortcut, and registers an uninstaller in "Apps & features".
; Settings and saved games (registry / AppData) are the player's and are left alone on uninstall.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "Tafl Desktop"
#define AppExe "tafl-desktop.exe"

[Setup]
; Never change AppId: Windows recognises upgrades and the uninstaller by it.
AppId={{D312F608-2C7F-4F6C-821B-8E4F125EED36}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=Tafl Desktop
; Paths below are relative to the repository root.
SourceDir=..\..
OutputDir=dist
OutputBaseFilename=tafl-desktop-{#AppVersion}-windows-x64-setup
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Per-user install by default (no admin prompt); the dialog lets an admin install for everyone.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
SetupIconFile=build\icons\tafl-desktop.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[InstallDelete]
; An upgrade replaces the bundle's library folder whole, so files a newer build dropped do not linger.
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "dist\tafl-desktop\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; Comment: "Play and print Tafl, the Fox games and Dablot"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
