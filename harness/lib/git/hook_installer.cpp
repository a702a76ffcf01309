#include "git/hook_installer.h"

#include <fstream>
#include <sstream>
#include <system_error>

namespace portcheck::git {

namespace fs = std::filesystem;

namespace {

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes through a temporary file and a rename, so git never runs half a script.
bool writeExecutable(const fs::path& path, const std::string& text, std::string& error) {
  fs::path tmp = path;
  tmp += ".port-check-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !(out << text) || !out.flush()) {
      error = "cannot write " + tmp.string();
      return false;
    }
  }
  std::error_code ec;
  fs::permissions(tmp, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec, ec);
  if (!ec) fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    error = "cannot write " + path.string() + ": " + ec.message();
    return false;
  }
  return true;
}

HookChange failed(const fs::path& hook, std::string message) {
  return HookChange{HookChange::Status::Failed, hook, std::move(message)};
}

fs::path freeBackupName(const fs::path& hooks_dir) {
  std::error_code ec;
  fs::path p = hooks_dir / kBackupHookName;
  for (int i = 2; fs::symlink_status(p, ec).type() != fs::file_type::not_found; ++i)
    p = hooks_dir / (std::string(kBackupHookName) + "." + std::to_string(i));
  return p;
}

}  // namespace

std::string preCommitScript(const std::string& executable) {
  std::string exe = shellQuote(executable);
  return std::string("#!/bin/sh\n") + kHookMarker + "\n" +
         "# Checks the staged content of PyPTO ports (projects/*/pypto_src, pypto-lib) before each commit.\n"
         "# Written by `port-check hook install`; remove it with `port-check hook uninstall`.\n"
         "# Bypass it once, knowingly: git commit --no-verify\n"
         "hooks_dir=$(dirname \"$0\")\n"
         "chained=\"$hooks_dir/" + kChainedHookName + "\"\n"
         "if [ -x \"$chained\" ]; then\n"
         "  \"$chained\" \"$@\" || exit $?\n"
         "fi\n"
         "port_check=" + exe + "\n"
         "if [ ! -x \"$port_check\" ]; then\n"
         "  port_check=$(command -v port-check 2>/dev/null) || {\n"
         "    echo \"port-check: error: the port-check binary is gone (\"" + exe + "\" and none on PATH);\" >&2\n"
         "    echo \"port-check: the staged files were NOT checked. Reinstall with: port-check hook install\" >&2\n"
         "    exit 0\n"
         "  }\n"
         "fi\n"
         "exec \"$port_check\" hook run\n";
}

bool isPortCheckHook(const std::string& text) { return text.find(kHookMarker) != std::string::npos; }

HookChange installPreCommitHook(const fs::path& hooks_dir, const std::string& executable, bool force, bool chain) {
  fs::path hook = hooks_dir / "pre-commit";
  fs::path chained = hooks_dir / kChainedHookName;
  std::error_code ec;
  fs::create_directories(hooks_dir, ec);
  if (ec) return failed(hook, "cannot create the hooks folder " + hooks_dir.string() + ": " + ec.message());

  HookChange result{HookChange::Status::Installed, hook, ""};
  fs::file_status st = fs::symlink_status(hook, ec);
  if (fs::exists(st)) {
    if (fs::is_directory(st)) return failed(hook, hook.string() + " is a folder, not a hook script");
    if (isPortCheckHook(readAll(hook))) {
      result.status = HookChange::Status::Updated;
    } else if (chain) {
      if (fs::exists(fs::symlink_status(chained, ec)))
        return HookChange{HookChange::Status::Refused, hook,
                          "both a foreign pre-commit hook and " + chained.string() +
                              " exist; port-check chains to one hook only. Merge them into one script first."};
      fs::rename(hook, chained, ec);
      if (ec) return failed(hook, "cannot move the existing hook to " + chained.string() + ": " + ec.message());
      result.status = HookChange::Status::Chained;
    } else if (force) {
      fs::path backup = freeBackupName(hooks_dir);
      fs::rename(hook, backup, ec);
      if (ec) return failed(hook, "cannot move the existing hook to " + backup.string() + ": " + ec.message());
      result.status = HookChange::Status::Replaced;
      result.message = "the previous pre-commit hook was moved to " + backup.string() + "\n";
    } else {
      return HookChange{HookChange::Status::Refused, hook,
                        hook.string() + " already exists and was not written by port-check; it was left unchanged.\n"
                        "Re-run with --chain to keep it and run it before port-check, or with --force to replace "
                        "it (it is kept as " + kBackupHookName + ")."};
    }
  }
  std::string error;
  if (!writeExecutable(hook, preCommitScript(executable), error)) return failed(hook, error);
  switch (result.status) {
    case HookChange::Status::Updated: result.message += "updated the port-check pre-commit hook " + hook.string(); break;
    case HookChange::Status::Chained:
      result.message += "installed the port-check pre-commit hook " + hook.string() +
                        "; your previous hook was moved to " + chained.string() + " and runs first";
      break;
    default: result.message += "installed the port-check pre-commit hook " + hook.string(); break;
  }
  if (result.status != HookChange::Status::Chained && fs::exists(fs::symlink_status(chained, ec)))
    result.message += "\nit runs " + chained.string() + " first";
  return result;
}

HookChange uninstallPreCommitHook(const fs::path& hooks_dir) {
  fs::path hook = hooks_dir / "pre-commit";
  fs::path chained = hooks_dir / kChainedHookName;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(hook, ec)))
    return HookChange{HookChange::Status::NothingToDo, hook, "no pre-commit hook is installed in " + hooks_dir.string()};
  if (!isPortCheckHook(readAll(hook)))
    return HookChange{HookChange::Status::Refused, hook,
                      hook.string() + " was not written by port-check; it was left unchanged"};
  fs::remove(hook, ec);
  if (ec) return failed(hook, "cannot remove " + hook.string() + ": " + ec.message());
  if (fs::exists(fs::symlink_status(chained, ec))) {
    fs::rename(chained, hook, ec);
    if (ec) return failed(hook, "removed the port-check hook but cannot restore " + chained.string() + ": " + ec.message());
    return HookChange{HookChange::Status::Restored, hook,
                      "removed the port-check pre-commit hook and restored the hook it chained to as " + hook.string()};
  }
  return HookChange{HookChange::Status::Removed, hook, "removed the port-check pre-commit hook " + hook.string()};
}

}  // namespace portcheck::git
