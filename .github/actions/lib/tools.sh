#!/usr/bin/env bash
# The install of storefront-contract-tools shared by the certify and certify-merge actions (one place for
# both). Each subcommand is one step of the action; inputs come through the environment, never the text.
#
#   plan     what to install and its cache key. TARBALLS (paths or globs, one a line or separated by
#            spaces, of the two packed tarballs, e.g. from an artifact of the job) wins over VERSION (the
#            version on the registry npm is configured for). Outputs cache-dir (npm's cache, what
#            actions/cache keeps) and cache-key (the version, or a digest of the tarballs: the tools'
#            npm-shrinkwrap.json, inside the package, pins the rest of the tree, so the key names it).
#   install  the tools into $RUNNER_TEMP/storefront-contract-tools/package: their tarball (npm pack of
#            VERSION from the registry, or the one given), unpacked, then `npm ci` there, which installs
#            the tree their npm-shrinkwrap.json pins (the library with it: from the registry, or from its
#            tarball when given). Outputs bin (the CLI's script) and package-dir. Nothing is added to
#            the job's PATH.
#   node     the Node.js that runs the tools, without changing the job's: NODE_VERSION empty, the
#            runner's `node`; else the runner's if it is that version, else one in the runner's tool
#            cache (where actions/setup-node puts them). Either must satisfy the tools' engines.node.
#            Outputs node (its path) and version. Fails with one line and the fix otherwise.
set -eo pipefail

fail() {
  echo "::error title=Storefront contract::$1"
  exit 2
}

# The tarballs named by TARBALLS (split on white space; each a path or a glob), checked: one of each
# package. Writes their absolute paths, the library first, to the file $1.
tarball_list() {
  local item match files=() tools=() library=() f
  set -f
  for item in $TARBALLS; do
    set +f
    local found=0
    while IFS= read -r match; do
      [ -n "$match" ] && files+=("$match") && found=1
    done < <(compgen -G "$item" || true)
    if [ "$found" -eq 0 ]; then fail "tarballs: $item matches no file: give the paths of the two packed tarballs (storefront-contract-<version>.tgz and storefront-contract-tools-<version>.tgz)"; fi
    set -f
  done
  set +f
  for f in "${files[@]}"; do
    case "$(basename "$f")" in
      storefront-contract-tools-[0-9]*.tgz) tools+=("$f") ;;
      storefront-contract-[0-9]*.tgz) library+=("$f") ;;
      *) fail "tarballs: $f is not a packed storefront-contract or storefront-contract-tools tarball (npm pack names them <name>-<version>.tgz)" ;;
    esac
  done
  if [ "${#tools[@]}" -ne 1 ] || [ "${#library[@]}" -ne 1 ]; then
    fail "tarballs: give exactly one storefront-contract-tools-<version>.tgz and one storefront-contract-<version>.tgz (given: ${files[*]:-none}): the tools need the library beside them"
  fi
  : > "$1"
  for f in "${library[0]}" "${tools[0]}"; do (cd "$(dirname "$f")" && echo "$PWD/$(basename "$f")") >> "$1"; done
}

digest() {
  if command -v sha256sum > /dev/null; then sha256sum "$@" | cut -c1-64; else shasum -a 256 "$@" | cut -c1-64; fi
}

plan() {
  local id
  if [ -n "$TARBALLS" ]; then
    tarball_list "$RUNNER_TEMP/storefront-contract-tools.specs"
    mapfile -t files < "$RUNNER_TEMP/storefront-contract-tools.specs"
    id="tarballs-$(digest "${files[@]}" | digest /dev/stdin | cut -c1-16)"
  else
    if [ -z "$VERSION" ]; then fail "version: empty: give the storefront-contract-tools version to install, or tarballs"; fi
    if ! [[ "$VERSION" =~ ^[0-9A-Za-z.+-]+$ ]]; then fail "version: $VERSION is not a version: give one such as 0.2.0 (or the packed tarballs as tarballs)"; fi
    echo "storefront-contract-tools@$VERSION" > "$RUNNER_TEMP/storefront-contract-tools.specs"
    id="$VERSION"
  fi
  {
    echo "cache-dir=$(npm config get cache)"
    echo "cache-key=storefront-contract-tools-${RUNNER_OS:-$(uname -s)}-$id"
  } >> "$GITHUB_OUTPUT"
}

install() {
  local dir="$RUNNER_TEMP/storefront-contract-tools" specs tools library=''
  rm -rf "$dir"
  mkdir -p "$dir"
  mapfile -t specs < "$RUNNER_TEMP/storefront-contract-tools.specs"
  if [ "${#specs[@]}" -eq 2 ]; then
    library="${specs[0]}"
    tools="${specs[1]}"
  else
    echo "Fetching ${specs[0]} from $(npm config get registry)"
    if ! npm pack "${specs[0]}" --pack-destination "$dir" --silent > "$dir/packed"; then
      fail "npm pack ${specs[0]} failed (above): is the version published on $(npm config get registry)?"
    fi
    tools="$dir/$(tail -n 1 "$dir/packed")"
  fi
  # The tools unpacked, then their own lockfile (npm-shrinkwrap.json) installed with npm ci: the same
  # tree in every job, whatever the registry (npm ignores a dependency's shrinkwrap on registries that
  # do not flag it, and always for a tarball).
  tar -xzf "$tools" -C "$dir"
  local package="$dir/package"
  if [ ! -f "$package/npm-shrinkwrap.json" ]; then fail "$(basename "$tools") has no npm-shrinkwrap.json: use a release of storefront-contract-tools that ships one"; fi
  if [ -n "$library" ]; then
    # The library from its tarball, not the registry.
    node -e '
      const [file, library] = process.argv.slice(1);
      const fs = require("fs");
      const lock = JSON.parse(fs.readFileSync(file, "utf8"));
      const entry = lock.packages["node_modules/storefront-contract"];
      if (!entry) { console.log("::error title=Storefront contract::the tools pin no storefront-contract in npm-shrinkwrap.json"); process.exit(2); }
      entry.resolved = "file:" + library;
      delete entry.integrity;
      fs.writeFileSync(file, JSON.stringify(lock, null, 2));
    ' "$package/npm-shrinkwrap.json" "$library"
    local want
    want=$(node -p 'require(process.argv[1]).packages["node_modules/storefront-contract"].version' "$package/npm-shrinkwrap.json")
    if [[ "$(basename "$library")" != "storefront-contract-$want.tgz" ]]; then fail "tarballs: the tools need storefront-contract $want, given $(basename "$library"): give the two tarballs of one release"; fi
  fi
  echo "Installing $(basename "$tools") from its npm-shrinkwrap.json (registry $(npm config get registry))"
  if ! (cd "$package" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund); then
    fail "npm ci of $(basename "$tools") failed (above): can npm reach $(npm config get registry)?"
  fi
  local bin
  bin=$(node -p 'const m = require(process.argv[1] + "/package.json"); require("path").join(process.argv[1], typeof m.bin === "string" ? m.bin : m.bin["storefront-contract"])' "$package")
  {
    echo "bin=$bin"
    echo "package-dir=$package"
  } >> "$GITHUB_OUTPUT"
}

# Whether version $1 (20.19.0) satisfies the range $2 in the forms engines.node uses: comparators
# ^x.y.z, >=x.y.z or x.y.z, alternatives joined by ||.
satisfies() {
  local v="$1" range="$2" alt
  IFS='.' read -r vmaj vmin vpat <<< "$v"
  while [ -n "$range" ]; do
    alt="${range%%||*}"
    if [ "$alt" = "$range" ]; then range=''; else range="${range#*||}"; fi
    alt="${alt// /}"
    local op='' want="$alt"
    case "$alt" in
      '^'*) op='^'; want="${alt#^}" ;;
      '>='*) op='>='; want="${alt#>=}" ;;
      [0-9]*) op='=' ;;
      *) echo "unknown"; return ;;
    esac
    IFS='.' read -r wmaj wmin wpat <<< "$want"
    local cmp=$(( (vmaj - wmaj) * 1000000 + (vmin - wmin) * 1000 + (vpat - wpat) ))
    case "$op" in
      '^') if [ "$vmaj" -eq "$wmaj" ] && [ "$cmp" -ge 0 ]; then echo yes; return; fi ;;
      '>=') if [ "$cmp" -ge 0 ]; then echo yes; return; fi ;;
      '=') if [ "$cmp" -eq 0 ]; then echo yes; return; fi ;;
    esac
  done
  echo no
}

# Whether version $1 (22.12.0) is the wanted $2 (22, 22.x, 22.12, 22.12.0).
is_wanted() {
  local v="$1" want="${2#v}"
  want="${want%.x}"
  [ "$v" = "$want" ] || [[ "$v" == "$want".* ]]
}

node_for_tools() {
  local range chosen='' version='' candidate runner
  runner=$(command -v node || true)
  if [ -z "$NODE_VERSION" ]; then
    if [ -z "$runner" ]; then fail "node-version: empty, and the runner has no node on PATH: set node-version (e.g. 22), or run actions/setup-node before this action"; fi
    chosen="$runner"
  else
    if ! [[ "$NODE_VERSION" =~ ^v?[0-9]+(\.[0-9]+){0,2}(\.x)?$ ]]; then fail "node-version: $NODE_VERSION is not a version such as 22 or 22.12: give one, or leave it empty for the runner's node"; fi
    if [ -n "$runner" ] && is_wanted "$("$runner" --version | sed 's/^v//')" "$NODE_VERSION"; then
      chosen="$runner"
    else
      for candidate in $(ls -d "${RUNNER_TOOL_CACHE:-/nonexistent}"/node/*/ 2> /dev/null | sort -V -r); do
        if is_wanted "$(basename "$candidate")" "$NODE_VERSION"; then
          for bin in "$candidate"*/bin/node; do
            if [ -x "$bin" ]; then chosen="$bin"; break 2; fi
          done
        fi
      done
    fi
    if [ -z "$chosen" ]; then
      local described=missing
      if [ -n "$runner" ]; then described="$("$runner" --version)"; fi
      fail "node-version: no Node.js $NODE_VERSION on this runner (node on PATH: $described; none in the tool cache): run actions/setup-node with node-version $NODE_VERSION before this action, or leave node-version empty"
    fi
  fi
  version=$("$chosen" --version | sed 's/^v//')
  range=$("$chosen" -p '(require(process.argv[1]).engines || {}).node || ""' "$PACKAGE_DIR/package.json") || fail "$chosen could not read $PACKAGE_DIR/package.json: is it a working Node.js?"
  if [ -n "$range" ]; then
    case "$(satisfies "$version" "$range")" in
      no) fail "Node.js $version ($chosen) does not satisfy storefront-contract-tools' engines ($range): set node-version to 22 (a Node of the runner's tool cache, the job's own node untouched), or run actions/setup-node before this action" ;;
      unknown) echo "::warning title=Storefront contract::could not read the engines range $range; running the tools with Node.js $version" ;;
    esac
  fi
  echo "Node.js $version ($chosen) runs the tools; the job's PATH is unchanged"
  {
    echo "node=$chosen"
    echo "version=$version"
  } >> "$GITHUB_OUTPUT"
}

case "${1:-}" in
  plan) plan ;;
  install) install ;;
  node) node_for_tools ;;
  *) echo "usage: tools.sh plan|install|node" >&2; exit 2 ;;
esac
