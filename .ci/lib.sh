# Shared by the .ci scripts: source it (`. "$(dirname "$0")/lib.sh"`).

# Prints the path of a Chromium (or Chrome) on PATH; fails when there is none.
find_chromium() {
  local name
  for name in chromium chromium-browser chromium-headless-shell google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"
      return 0
    fi
  done
  return 1
}

# Installs the Debian packages named, with apt-get (through sudo when not root); nothing when
# none is named.
apt_install() {
  (($# > 0)) || return 0
  echo "== installing $*"
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -q
  # Through env: sudo would drop a variable set in front of it.
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "$@"
}

# Installs Graphviz, Chromium and python3 where missing (and pip, when asked with `pip`), then
# sets `chromium` to Chromium's path.
need_graph_tools() {
  local missing=()
  command -v dot >/dev/null 2>&1 || missing+=(graphviz)
  find_chromium >/dev/null || missing+=(chromium)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  if [[ ${1:-} == pip ]] && ! { command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; }; then
    missing+=(python3-pip)
  fi
  if ((${#missing[@]} > 0)); then apt_install "${missing[@]}"; fi
  chromium=$(find_chromium)
}
