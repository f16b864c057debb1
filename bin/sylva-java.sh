# shellcheck shell=bash
# Sourced by the `sylva` launchers (./sylva here, bin/sylva in the distribution). Defines sylva_exec:
#   sylva_exec JAVA JAR AOT_CACHE ARGS...
# which replaces the shell with the JVM running the CLI:
#  - with the Vector API module (the SIMD kernels; the library falls back to scalar without it), except
#    for the runs that compute little (sylva_small_run: a small `sylva hdbscan` input, `sylva predict` of few new
#    points, cut, reselect and a ball tree of a small input, help, devices), which run the scalar kernels
#    anyway and start faster without it;
#  - with native access allowed (the GPU engine's FFM calls into OpenCL and CUDA; no warning printed);
#  - with transparent huge pages where the kernel gives them on request (see SYLVA_THP_SETTING);
#  - with JDK 25's ahead-of-time cache AOT_CACHE (or a sibling of it, see sylva_train_aot)
#    when that file exists and is newer than JAR (a cache older than the jar is never used; the JVM itself
#    does not check the jar's contents, so a jar replaced with an older timestamp needs the caches removed;
#    the JVM's own cache messages are silenced so they cannot reach stdout);
#  - with the JVM's one-line "Using incubator modules" warning removed from stderr (it is printed on
#    every start and cannot be switched off; everything else on stderr passes through untouched, byte
#    for byte, progress lines included). The JVM keeps this shell's PID, stdin and signals (Ctrl-C, TERM).
sylva_drop_incubator_warning() {
  trap '' INT TERM HUP   # the JVM reports an interruption on stderr: keep passing it through
  # The warning is the JVM's first line, but a Ctrl-C during start-up can put the JDK's own complaint about
  # that exit before it: looked for among the first three lines.
  # The JVM's "Picked up JAVA_TOOL_OPTIONS: ..." notes (one per such variable set) come before it and do not count.
  local line i others=0
  for ((i = 0; i < 8 && others < 3; i++)); do
    if IFS= read -r line; then
      # found (as the first line, every normal run): the rest passes at once, \r-painted progress included
      [ "$line" = "WARNING: Using incubator modules: jdk.incubator.vector" ] && break
      case "$line" in "Picked up "*|"NOTE: Picked up "*) ;; *) others=$((others + 1)) ;; esac
      printf '%s\n' "$line"
    else
      [ -z "$line" ] || printf '%s' "$line"
      return 0
    fi
  done
  exec cat
}

# The launcher's own time counts in every cold run, so the functions below run no other process (no
# subshell, no head/sed; a run that keeps the module still starts the stderr filter below, and a run whose stderr is
# a terminal asks stty for its width, about 3 ms, BENCHMARKS.md "Cold runs on a terminal"; a text table's size is
# read by wc -c, about 1 ms, where one is an input of `sylva hdbscan`): each one
# costs a few milliseconds on a small VM, and they added up to a fifth of a small run (BENCHMARKS.md, "Cold runs: picocli in the start-up cache"). They append to the array
# SYLVA_OPTS; the *_args / *_opts forms print one option per line (tests, the cache's training).
#
# Transparent huge pages where the kernel gives them on request (its setting reads "[madvise]"): this VM's
# memory is filled in by the host at each 4 KiB page's first touch, and with 2 MiB pages the JVM's heap
# takes 512 times fewer of those faults. Measured, cold, alternating: 1 149 clips 1.15x faster, 1 653 x 96
# features and 20 000 clips 1.2x, 1 000 new clips predicted 1.45x, one against a 200 000-clip model 1.64x
# (BENCHMARKS.md, "Cold runs on huge pages"); peak RSS 10-50 MB more. Only then: where the setting is
# "[never]" the JVM would print a warning on stdout, and under "[always]" every page is huge already.
SYLVA_THP_SETTING=/sys/kernel/mm/transparent_hugepage/enabled
sylva_add_java_args() {   # JAR AOT_CACHE [no-vector-module]: appends the JVM options to SYLVA_OPTS
  [ "${3:-}" = no-vector-module ] || SYLVA_OPTS+=("--add-modules" "jdk.incubator.vector")
  SYLVA_OPTS+=("-Xss8m")
  local thp=""
  { IFS= read -r thp < "$SYLVA_THP_SETTING"; } 2>/dev/null || :
  case "$thp" in *"[madvise]"*) SYLVA_OPTS+=("-XX:+UseTransparentHugePages") ;; esac
  sylva_address_space_opts
  # the GPU engine calls libOpenCL/libcuda through the FFM API: allowed, so the JVM prints no warning
  SYLVA_OPTS+=("--enable-native-access=ALL-UNNAMED")
  # on a terminal: say so (the JVM's stderr is the pipe to the filter below, not the terminal itself) and give its
  # width: progress repaints one line there, which must not wrap (one process, on a terminal only)
  if [ -t 2 ]; then
    SYLVA_OPTS+=("-Dsylva.stderr=terminal")
    local size=""
    size="$(stty size <&2 2>/dev/null)" || size=""
    case "$size" in *" "[0-9]*) SYLVA_OPTS+=("-Dsylva.columns=${size#* }") ;; esac
  fi
  # the JVM's own output (a thread dump on SIGQUIT, a VM warning) on stderr: stdout carries the command's
  # output only (`sylva serve`'s frames, `--json` lines), which one stray line would corrupt
  SYLVA_OPTS+=("-XX:+DisplayVMOutputToStderr")
  # and its log's warnings (a thread that cannot start, under `ulimit -u`), which go to stdout by default
  SYLVA_OPTS+=("-Xlog:disable" "-Xlog:all=warning,aot*=off,cds*=off:stderr")
  if [ -f "$2" ] && [ "$2" -nt "$1" ]; then
    SYLVA_OPTS+=("-XX:AOTCache=$2" "-Xlog:aot*=off" "-Xlog:cds*=off")
  fi
}
# Under a small limit on address space (`ulimit -v` below 8 GiB) the JVM's default reservations (1 GiB for class
# metadata, up to half the limit for the heap) and glibc's (an arena per thread that allocates) do not fit, and below
# about 3 GB it cannot start at all ("Could not allocate compressed class space", exit 1): there, 64 MiB for classes,
# half the limit less 512 MiB (at least 256 MiB) for the heap, and two malloc arenas (unless MALLOC_ARENA_MAX is set).
# Larger limits are left to the JVM (a heap of 32 GiB or more would turn compressed pointers off, and the start-up
# caches with them). SYLVA_JAVA_OPTS comes after these options, so a -Xmx there wins. Read with builtins: no process.
SYLVA_LIMITS=/proc/self/limits
sylva_address_space_opts() {
  local line limit=""
  while IFS= read -r line; do
    case "$line" in "Max address space"*) line=${line#Max address space}; line=${line#"${line%%[! ]*}"}
      limit=${line%% *} ;; esac
  done 2>/dev/null < "$SYLVA_LIMITS" || return 0   # the error of a missing file too: 2> first
  case "$limit" in ''|*[!0-9]*) return 0 ;; esac
  [ "$limit" -lt 8589934592 ] || return 0
  local heap=$(( limit / 2 - 536870912 ))
  [ "$heap" -ge 268435456 ] || heap=268435456
  SYLVA_OPTS+=("-XX:CompressedClassSpaceSize=64m" "-Xmx$(( heap / 1048576 ))m")
  [ -n "${MALLOC_ARENA_MAX:-}" ] || export MALLOC_ARENA_MAX=2
}
sylva_java_args() {   # JAR AOT_CACHE [no-vector-module]: the JVM options, one per line
  local SYLVA_OPTS=()
  sylva_add_java_args "$@"
  printf '%s\n' "${SYLVA_OPTS[@]}"
}

# The JIT for this run: C1 only (-XX:TieredStopAtLevel=1) for the runs sylva_small_run calls small, such as
# `sylva hdbscan` reading a small .npy (fewer
# than SYLVA_SMALL_VALUES coordinates, or fewer than SYLVA_SMALL_POINTS points and SYLVA_SMALL_POINTS_VALUES
# coordinates) and the backend is auto or scalar. Such a run is over before C2's
# compilations pay off (they take the second core meanwhile), and `auto` runs it on the scalar kernels,
# which C1 compiles well; measured: 20-30 % less wall time for 1 149 to 4 900 clips, and 1.1-2.1x faster
# than the vector kernels for 5 000 to 11 000 clips of 61 samples (BENCHMARKS.md, "Cold runs: which inputs
# the scalar kernel wins"). The
# vector kernels need C2, so larger inputs and other backends keep it, and so does a --metric other than
# euclidean: its brute-force engine does O(n^2) distances, where C2 pays off early (measured: 20 000 x 10
# manhattan, 8.8 s wall against 11.3 s on C1). The bounds are StageKernels.coldScalar's (a test keeps
# them equal).
# `sylva predict` of a .npy of new points gets C1 only by the same rule for the fit of equal cost
# (sylva_small_predict_run): against a 20 000-clip model, 1 000 and 3 000 new clips 30 % less wall time,
# 100 new clips against a 200 000-clip model 10 % (BENCHMARKS.md, "Cold predictions on C1").
#
# Every other run gets SYLVA_VECTOR_JIT: the vector kernels (org.sylva.kernels.Vector*) compiled by C2
# sooner. Until C2 has compiled a kernel, each Vector API operation in it runs as allocating Java code,
# many times slower than the compiled loop, and a one-shot run spends seconds there. So their compile
# thresholds are scaled down (0.05: C2 after a few hundred calls instead of thousands), and a thread that
# reaches a compile point of a kernel waits for the compiled code (BackgroundCompilation false) instead of
# running on in slow code beside the compiler. Results are the same (the JIT never changes what Java code
# computes); measured on 2 cores, cold runs of 20 000 and 50 000 clips and of the UCI letters 14-21 %
# shorter, without the rare 2x slower runs that the scaling alone showed (BENCHMARKS.md, "Cold runs: the
# vector kernels compiled sooner"). "quiet" keeps the JVM from echoing the commands on stdout.
SYLVA_SMALL_VALUES=300000
SYLVA_SMALL_POINTS=12000
SYLVA_SMALL_POINTS_VALUES=700000
SYLVA_VECTOR_JIT=(
  "-XX:CompileCommand=quiet"
  "-XX:CompileCommand=CompileThresholdScaling,org/sylva/kernels/Vector*.*,0.05"
  "-XX:CompileCommand=BackgroundCompilation,org/sylva/kernels/Vector*.*,false"
)
sylva_add_jit_opts() {   # small|other: appends the JIT options of such a run to SYLVA_OPTS
  if [ "$1" = small ]; then
    SYLVA_OPTS+=("-XX:TieredStopAtLevel=1")
  else
    SYLVA_OPTS+=("${SYLVA_VECTOR_JIT[@]}")
  fi
}
sylva_jit_opts() {   # ARGS...: the JIT options of `sylva ARGS...`, one per line
  local SYLVA_OPTS=() kind=other
  sylva_small_run "$@" 2>/dev/null && kind=small
  sylva_add_jit_opts "$kind"
  printf '%s\n' "${SYLVA_OPTS[@]}"
}

# True (status 0) for the runs that get C1 only: `sylva hdbscan` on a small .npy or text table (see above) with
# the auto or scalar backend and the Euclidean metric, `sylva predict` of a .npy of few new points against a
# small enough model (sylva_small_predict_run), `sylva cut` and `sylva reselect` of a model of a small fit
# (sylva_small_model_run), `sylva balltree` of a small .npy on the scalar code (sylva_small_balltree_run), and
# the runs that compute nothing: help (no arguments, `help`, -h or --help anywhere before `--`) and `sylva devices`.
# For `sylva hdbscan` the inputs are the existing *.npy and text (.csv, .tsv, .tab, .txt, .dat) arguments that are
# not an option's value (--sample-weight w.npy, --waveforms-from=c.npy), their points and coordinates summed (a
# text table's rows estimated from its size and its second line, sylva_text_shape); an existing file of another
# kind among them (.npz, raw) makes the run count as large.
# Call it with 2>/dev/null: a locale named in LC_ALL but not installed makes bash warn when it is restored.
sylva_small_run() {
  local a help=""
  for a in "$@"; do   # help computes nothing (bounded by the argument count)
    case "$a" in
      --) break ;;
      -V|--version) return 1 ;;   # its text names the kernels a computing run of the command gets: the module's
      -h|--help) help=1 ;;
    esac
  done
  case "${1:-}" in
    ""|help|devices) return 0 ;;
    serve|bench) return 1 ;;   # long-lived, or timing warm runs: C2 and the vector kernels
  esac
  [ -z "$help" ] || return 0
  case "${1:-}" in
    hdbscan) sylva_small_hdbscan_run "$@" ;;
    predict) sylva_small_predict_run "$@" ;;
    cut|reselect) sylva_small_model_run "$@" ;;
    balltree) sylva_small_balltree_run "$@" ;;
    *) return 1 ;;
  esac
}
sylva_small_hdbscan_run() {
  local a prev="" inputs=() points=0 values=0 input
  for a in "$@"; do
    case "$prev" in --backend) case "$a" in auto|scalar) ;; *) return 1 ;; esac ;; esac
    case "$prev" in --metric) case "$a" in euclidean|l2) ;; *) return 1 ;; esac ;; esac
    case "$prev" in   # every option that takes a value: its value is no input
      --sample-weight|--waveforms-from|--out|--report|--save-model|--shape|--min-cluster-size|--min-samples|\
      --cluster-selection-epsilon|--max-cluster-size|--alpha|--method|--cluster-selection-method|--metric|--p|\
      --non-finite|--pca|--backend|--format|--centers|--store-centers|--channels|--threads) prev="$a"; continue ;;
    esac
    case "$a" in
      --backend=auto|--backend=scalar|--metric=euclidean|--metric=l2) ;;
      --backend=*|--metric=*) return 1 ;;
      @*) return 1 ;;   # options in a file (picocli's @FILE): not read here
      -*) ;;
      # the reader takes an extension in any case
      *.[Nn][Pp][Yy]|*.[Cc][Ss][Vv]|*.[Tt][Ss][Vv]|*.[Tt][Aa][Bb]|*.[Tt][Xx][Tt]|*.[Dd][Aa][Tt]) [ -f "$a" ] && inputs+=("$a") ;;
      *) [ -f "$a" ] && return 1 ;;   # another input (.npz, raw): its size is not read here
    esac
    prev="$a"
  done
  [ "${#inputs[@]}" -gt 0 ] || return 1
  # Several inputs (fitted one after the other in this JVM) are one run of their sizes together: C2 pays off
  # over many small fits as over one large one. Bounded by the argument count; each addition stays below 2^62.
  for input in "${inputs[@]}"; do
    case "$input" in
      *.[Nn][Pp][Yy]) sylva_npy_shape "$input" || return 1 ;;
      *) sylva_text_shape "$input" || return 1 ;;
    esac
    points=$((points + SYLVA_NPY_POINTS))
    values=$((values + SYLVA_NPY_POINTS * SYLVA_NPY_DIMS))
    [ "$points" -lt 2147483648 ] && [ "$values" -lt 2147483648 ] || return 1
  done
  [ "$values" -lt "$SYLVA_SMALL_VALUES" ] \
    || { [ "$points" -lt "$SYLVA_SMALL_POINTS" ] && [ "$values" -lt "$SYLVA_SMALL_POINTS_VALUES" ]; }
}

# `sylva predict MODEL NEW.npy...`: m new points (of every file together) searched among a model's n fitted
# points of d coordinates cost about what a fit of sqrt(m n) points costs, so that size goes through the
# fit's rule, as the library's
# choice of kernel for new points does (HdbscanModel.searchKernel; LauncherJitTest keeps them equal). The
# model's n and d are read from its header (docs/model-file.md: i32 at bytes 62 and 66, little-endian), in
# every format version (1 to 7); a model of versions 5 to 7 is taken only when it is Euclidean and unweighted
# (its metric byte at 70 and weighted byte at 79 are 0): another metric's scan chooses its kernel by another rule.
sylva_small_predict_run() {
  local a prev="" model="" npys=() k=0 npy m=0
  for a in "$@"; do
    case "$prev" in --out|--shape|--format|--threads) prev="$a"; continue ;; esac
    case "$a" in
      --shape|--shape=*|@*) return 1 ;;   # a raw file, or options in a file: not read here
      -*) ;;
      *) case $k in
           0) ;;   # the command's name
           1) model="$a" ;;
           *) case "$a" in *.npy) [ -f "$a" ] || return 1; npys+=("$a") ;; *) return 1 ;; esac ;;
         esac
         k=$((k + 1)) ;;
    esac
    prev="$a"
  done
  [ "${#npys[@]}" -gt 0 ] && [ -f "$model" ] || return 1
  # several files of new points (assigned one after the other in this JVM): their points together
  for npy in "${npys[@]}"; do
    sylva_npy_shape "$npy" || return 1
    m=$((m + SYLVA_NPY_POINTS))
    [ "$m" -lt 2147483648 ] || return 1
  done
  sylva_model_shape "$model" || return 1
  local -a b=("${SYLVA_BYTES[@]}")
  if [ "${b[12]}" -ge 5 ]; then [ "${b[70]}" -eq 0 ] && [ "${b[79]}" -eq 0 ] || return 1; fi
  local n="$SYLVA_MODEL_POINTS" d="$SYLVA_MODEL_DIMS"
  [ "$m" -lt 2147483648 ] || return 1
  # ceil(sqrt(m n)) by Newton's method on integers (m n < 2^62; at most 64 steps)
  local x=$((m * n)) r s i
  r=$x; s=$(( (r + 1) / 2 ))
  for ((i = 0; i < 64 && s < r; i++)); do r=$s; s=$(( (r + x / r) / 2 )); done
  [ $((r * r)) -lt "$x" ] && r=$((r + 1))
  sylva_cold_scalar "$r" "$d"
}

# `sylva cut MODEL` and `sylva reselect MODEL`: no distance is computed (the model's spanning tree is cut, or its
# condensed tree selected again), so the work grows with the model's points as a fit's own tree stages do; a model
# of a fit the fit's rule calls small (its n and d from the header, as sylva_small_predict_run reads them, any
# metric) is a small run.
sylva_small_model_run() {
  local a prev="" model="" k=0
  for a in "$@"; do
    case "$prev" in --out|--format|--threads|--distance|--min-cluster-size|--method|--cluster-selection-epsilon|\
      --max-cluster-size|--save-model) prev="$a"; continue ;; esac
    case "$a" in
      @*) return 1 ;;   # options in a file: not read here
      -*) ;;
      *) [ "$k" -eq 1 ] && model="$a"; k=$((k + 1)) ;;
    esac
    prev="$a"
  done
  [ -f "$model" ] && sylva_model_shape "$model" && sylva_cold_scalar "$SYLVA_MODEL_POINTS" "$SYLVA_MODEL_DIMS"
}

# `sylva balltree POINTS.npy` on the scalar code (the default; not --kernels vector, --backend simd or a GPU):
# a small cloud by the fit's rule on its points and coordinates.
sylva_small_balltree_run() {
  local a prev="" npy="" k=0
  for a in "$@"; do
    case "$prev" in --backend) case "$a" in auto|cpu|scalar) ;; *) return 1 ;; esac ;; esac
    case "$prev" in --kernels) case "$a" in scalar) ;; *) return 1 ;; esac ;; esac
    case "$prev" in --batch|--out|--partition-level|--format|--report|--report-level|--report-batch|--kernels|\
      --backend|--threads|--shape) prev="$a"; continue ;; esac
    case "$a" in
      --backend=auto|--backend=cpu|--backend=scalar|--kernels=scalar) ;;
      --backend=*|--kernels=*|--shape|--shape=*|@*) return 1 ;;
      -*) ;;
      *) case $k in
           0) ;;   # the command's name
           1) case "$a" in *.npy) [ -f "$a" ] && npy="$a" ;; esac ;;
         esac
         k=$((k + 1)) ;;
    esac
    prev="$a"
  done
  [ -n "$npy" ] && sylva_npy_shape "$npy" && sylva_cold_scalar "$SYLVA_NPY_POINTS" "$SYLVA_NPY_DIMS"
}

# SYLVA_MODEL_POINTS and SYLVA_MODEL_DIMS: a model file's fitted rows and coordinates from its header
# (docs/model-file.md: the magic, a format version 1 to 7, then n and d as little-endian i32 at bytes 62 and 66);
# false for another header. SYLVA_BYTES keeps the header's first 80 bytes.
sylva_model_shape() {
  sylva_read_bytes "$1" 80
  local -a b=("${SYLVA_BYTES[@]}")
  [ "${#b[@]}" -eq 80 ] && [ "${b[*]:0:12}" = "137 83 89 76 86 65 13 10 72 68 66 77" ] || return 1
  # (a header of another layout is not read on: the JVM says what is wrong with the file)
  [ "${b[13]}${b[14]}${b[15]}" = 000 ] && [ "${b[12]}" -ge 1 ] && [ "${b[12]}" -le 7 ] || return 1
  [ "${b[65]}" -lt 128 ] && [ "${b[69]}" -lt 128 ] || return 1
  SYLVA_MODEL_POINTS=$(( b[62] | b[63] << 8 | b[64] << 16 | b[65] << 24 ))
  SYLVA_MODEL_DIMS=$(( b[66] | b[67] << 8 | b[68] << 16 | b[69] << 24 ))
  [ "$SYLVA_MODEL_POINTS" -gt 0 ] && [ "$SYLVA_MODEL_DIMS" -gt 0 ]
}

# SYLVA_NPY_POINTS and SYLVA_NPY_DIMS for a text table: the cells of its second line that is neither blank nor a
# '#' comment (its first, when it has one; separated by commas, tabs or blanks; the first may be a header) and its
# rows estimated as the file's size over that line's length. An estimate is enough: it chooses the JIT, never what
# is computed. False for a file without such a line among its first 64, or whose line sampled is 65 535 bytes or
# longer (read no further).
sylva_text_shape() {
  local LC_ALL=C l="" l1="" l2="" line size cells=() i fd
  exec {fd}<"$1" 2>/dev/null || return 1
  for ((i = 0; i < 64 && ${#l2} == 0; i++)); do
    IFS= read -r -n 65536 -u "$fd" l || { [ -n "$l" ] || break; }
    case "$l" in ""|"#"*|$'\r') continue ;; esac
    if [ -z "$l1" ]; then l1="$l"; else l2="$l"; fi
    l=""
  done
  exec {fd}<&-
  line="${l2:-$l1}"
  [ -n "$line" ] && [ "${#line}" -lt 65535 ] || return 1
  size="$(wc -c < "$1" 2>/dev/null)" || return 1
  size="${size//[!0-9]/}"
  [ -n "$size" ] && [ "${#size}" -le 15 ] || return 1
  line="${line//,/ }"
  IFS=$' \t\r' read -r -a cells <<< "$line"
  [ "${#cells[@]}" -gt 0 ] || return 1
  SYLVA_NPY_DIMS="${#cells[@]}"
  SYLVA_NPY_POINTS=$(( 10#$size / (${#l2} > 0 ? ${#l2} + 1 : ${#l1} + 1) + 1 ))
  [ "$SYLVA_NPY_POINTS" -lt 2147483648 ]
}

# True when a fresh JVM fits N points of D coordinates faster on the scalar kernels (StageKernels.coldScalar)
sylva_cold_scalar() {
  local n="$1" d="$2"
  [ "$n" -lt 2147483648 ] && [ "$d" -lt 2147483648 ] || return 1
  local values=$((n * d))
  [ "$values" -lt "$SYLVA_SMALL_VALUES" ] \
    || { [ "$n" -lt "$SYLVA_SMALL_POINTS" ] && [ "$values" -lt "$SYLVA_SMALL_POINTS_VALUES" ]; }
}

# SYLVA_NPY_POINTS and SYLVA_NPY_DIMS: a .npy's rows and the product of its other dimensions (1 for a 1-D
# array), from the header's shape, e.g. "'shape': (1653, 96),"; false when it has none or a dimension
# above 2^31 (bash's read drops the magic's NUL bytes; bytes, not characters, under LC_ALL=C).
sylva_npy_shape() {
  local LC_ALL=C header="" dim first=1
  SYLVA_NPY_POINTS=""; SYLVA_NPY_DIMS=1
  { IFS= read -r -N 4096 header < "$1"; } 2>/dev/null || :
  [[ $header =~ \'shape\':\ *\(([0-9][0-9,\ ]*)\) ]] || return 1
  for dim in ${BASH_REMATCH[1]//,/ }; do
    [ "${#dim}" -le 10 ] && [ "$((10#$dim))" -lt 2147483648 ] || return 1
    if [ -n "$first" ]; then
      SYLVA_NPY_POINTS=$((10#$dim)); first=""
    else
      SYLVA_NPY_DIMS=$((SYLVA_NPY_DIMS * 10#$dim))
      [ "$SYLVA_NPY_DIMS" -lt 2147483648 ] || return 1
    fi
  done
  [ -n "$SYLVA_NPY_POINTS" ]
}

# SYLVA_BYTES: the first COUNT bytes of FILE as numbers 0-255 (fewer when the file is shorter), by bash
# alone: read -d '' stops at each NUL byte, which it drops, so a chunk shorter than asked for ended at one.
sylva_read_bytes() {   # FILE COUNT
  local LC_ALL=C IFS= chunk want fd b i end
  SYLVA_BYTES=()
  exec {fd}<"$1" || return 1
  for ((end = 0; end == 0 && ${#SYLVA_BYTES[@]} < $2; )); do   # each read takes a byte at least
    want=$(($2 - ${#SYLVA_BYTES[@]})); chunk=""
    read -r -d '' -n "$want" -u "$fd" chunk || end=1
    for ((i = 0; i < ${#chunk}; i++)); do printf -v b '%d' "'${chunk:i:1}"; SYLVA_BYTES+=("$b"); done
    [ "$end" -eq 0 ] && [ "${#chunk}" -lt "$want" ] && SYLVA_BYTES+=(0)
  done
  exec {fd}<&-
  return 0
}

# Under the C or POSIX locale (env -i, many containers) the JVM reads file names, arguments and the path of its own
# runtime as ASCII: a distribution unpacked in a folder with a non-ASCII name did not start ("Unexpected exception
# when loading aot-linked classes"), and from a working folder with such a name relative outputs went to a new folder
# named with '?'. There the JVM gets LC_CTYPE C.UTF-8, which differs from C only in reading such bytes as UTF-8 (as
# the rest of the system writes them). A locale with a charset of its own (ISO-8859-1, say) is left alone: its file
# names are in that charset. Where C.UTF-8 is not installed, the JVM falls back to C, as before (and bash's warning
# about it is not shown).
sylva_utf8_names() {
  case "${LC_ALL:-${LC_CTYPE:-${LANG:-}}}" in
    ""|C|POSIX) ;;
    *) return 0 ;;
  esac
  if [ -n "${LC_ALL:-}" ]; then
    { export LC_ALL=C.UTF-8; } 2>/dev/null
  else
    { export LC_CTYPE=C.UTF-8; } 2>/dev/null
  fi
}

sylva_exec() {
  local java="$1" jar="$2" aot="$3"; shift 3
  sylva_utf8_names
  if [ "$#" -eq 1 ] && { [ "$1" = --version ] || [ "$1" = -V ]; }; then
    # `sylva --version` computes nothing: without the incubator module the JVM can use a full AOT cache
    # (archived module graph, linked classes), which halves its start; the text says what computing
    # commands get.
    local vaot="${aot%.aot}-version.aot" vopts=()
    [ -f "$vaot" ] && [ "$vaot" -nt "$jar" ] && vopts=("-XX:AOTCache=$vaot" "-Xlog:aot*=off" "-Xlog:cds*=off")
    SYLVA_OPTS=()
    sylva_address_space_opts
    # shellcheck disable=SC2086
    exec "$java" "${vopts[@]}" "${SYLVA_OPTS[@]}" -Dsylva.launcher=adds-vector-module ${SYLVA_JAVA_OPTS:-} -jar "$jar" "$1"
  fi
  SYLVA_OPTS=()
  local kind=other
  sylva_small_run "$@" 2>/dev/null && kind=small
  # A small run (sylva_small_run: a small `sylva hdbscan` input, `sylva predict` of few new points, cut, reselect,
  # a small ball tree, help, devices) runs the scalar kernels under auto in a fresh JVM anyway, so it starts
  # without the Vector API module, from a cache of its own (AOT_CACHE's -small sibling, or -small-predict for the
  # commands that read a model). Without an incubator module in the boot layer, JDK 25's
  # cache also holds the module graph and the classes linked ahead of time; measured: 14-25 % less wall
  # time for 1 149 clips and 1 653 x 96 features (BENCHMARKS.md, "Cold runs: picocli in the start-up cache").
  # Same outputs: the same kernels run. Unless SYLVA_JAVA_OPTS asks for the module or a kernel choice: then
  # it gets the module, as before.
  case " ${SYLVA_JAVA_OPTS:-} " in *jdk.incubator.vector*|*sylva.kernels*) [ "$kind" = other ] || kind=small-with-module ;; esac
  if [ "$kind" = small ]; then
    local cache=small
    case "${1:-}" in predict|cut|reselect) cache=small-predict ;; esac   # the cache that holds a model's reading
    sylva_add_java_args "$jar" "${aot%.aot}-$cache.aot" no-vector-module
    sylva_add_jit_opts small
    # shellcheck disable=SC2086
    exec "$java" "${SYLVA_OPTS[@]}" ${SYLVA_JAVA_OPTS:-} -jar "$jar" "$@"
  fi
  sylva_add_java_args "$jar" "$aot"
  if [ "$kind" = small-with-module ]; then sylva_add_jit_opts small; else sylva_add_jit_opts other; fi
  # shellcheck disable=SC2086  # SYLVA_JAVA_OPTS is a list of JVM options on purpose
  exec "$java" "${SYLVA_OPTS[@]}" ${SYLVA_JAVA_OPTS:-} -jar "$jar" "$@" 2> >(sylva_drop_incubator_warning >&2)
}

# sylva_train_cache JAVA JAR CACHE TEMP TRAINING_ARGS...: runs AotTraining TRAINING_ARGS with the options in
# SYLVA_OPTS, writing the cache to TEMP; when the training succeeds and a JVM with those options takes the
# cache (-XX:AOTMode=on fails otherwise), moves it to CACHE.
# Returns 129, 130 or 143 where it was interrupted (SIGHUP, Ctrl-C or SIGTERM to this shell, see sylva_train_run,
# or to the JVM, which handles such a signal and exits with that status rather than dying of it, so the shell would
# carry on), 0 otherwise, made or not (a JVM that crashed, 134 or 137 say, is a failed training, not an
# interruption: the run goes on without the cache).
sylva_interrupted() { [ "$1" -eq 129 ] || [ "$1" -eq 130 ] || [ "$1" -eq 143 ]; }

# sylva_train_run COMMAND...: runs one JVM of a training (output discarded) and returns its status, or 129, 130 or
# 143 where this shell got SIGHUP, Ctrl-C or SIGTERM meanwhile, which kills that JVM and what it started at once.
# Why not let the JVM see the signal: a JVM writing its cache (-XX:AOTCacheOutput) does it on its way out, with a
# JVM of its own (several seconds) during which a Ctrl-C changes nothing; the training then exited 0, the next
# one started and the command the user had stopped ran after all. So the JVM runs in a session of its own
# (setsid, where there is one: the terminal's Ctrl-C reaches this shell only), in the background, so that a
# trapped signal ends the wait at once; its whole process group is killed, the assembling JVM with it.
# The cost: the JVM is out of this shell's process group, so what reaches the group alone (Ctrl-Z, Ctrl-\, a kill -9
# of this shell) does not stop it; a kill -9 leaves it to finish its training in the background. The caller's own
# traps of these signals are put back after.
sylva_train_run() {
  local pid rc=0 sylva_signal='' saved
  saved="$(trap -p INT TERM HUP)"
  trap 'sylva_signal=130' INT
  trap 'sylva_signal=143' TERM
  trap 'sylva_signal=129' HUP
  if command -v setsid >/dev/null 2>&1; then
    setsid "$@" >/dev/null 2>&1 </dev/null &
  else
    "$@" >/dev/null 2>&1 </dev/null &
  fi
  pid=$!
  # a signal between the traps and here ends the wait at once too
  [ -n "$sylva_signal" ] || wait "$pid" || rc=$?
  if [ -n "$sylva_signal" ]; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || :
    wait "$pid" 2>/dev/null || :
    rc="$sylva_signal"
  fi
  trap - INT TERM HUP
  eval "$saved"
  return "$rc"
}

sylva_train_cache() {
  local java="$1" jar="$2" cache="$3" temp="$4" rc=0; shift 4
  sylva_train_run "$java" "${SYLVA_OPTS[@]}" -XX:AOTCacheOutput="$temp" -Xlog:aot*=off -Xlog:cds*=off \
    -cp "$jar" org.sylva.cli.AotTraining "$@" || rc=$?
  ! sylva_interrupted "$rc" || return "$rc"
  [ "$rc" -eq 0 ] || return 0
  sylva_train_run "$java" "${SYLVA_OPTS[@]}" -XX:AOTCache="$temp" -XX:AOTMode=on -Xlog:aot*=off -Xlog:cds*=off \
    -jar "$jar" --version || rc=$?
  ! sylva_interrupted "$rc" || return "$rc"
  [ "$rc" -eq 0 ] || return 0
  mv -f "$temp" "$cache.$$" && mv -f "$cache.$$" "$cache"
  return 0
}

# Writes AOT_CACHE by a short training run (JDK 25: -XX:AOTCacheOutput; once per build, with its siblings
# 11-15 s on two cores):
#   sylva_train_aot JAVA JAR AOT_CACHE
# The training (org.sylva.cli.AotTraining) runs in one JVM what users run once per file: `sylva hdbscan`
# on a small and on a larger .npy, `predict`, `demo`, `balltree` and a fit through `sylva serve`'s engine, so the
# cache holds the classes those load.
# Three more caches sit beside it: AOT_CACHE's -small sibling for small `sylva hdbscan` inputs (and the other small
# runs that read no model) and its -small-predict one for `sylva predict` of few new points, cut and reselect (both
# started without the Vector API module, see
# sylva_exec; apart, since the JVM loads every class of its cache at start: a small fit measured 2-3 %
# slower from a cache that also held the prediction's classes), and the -version one for `sylva --version`.
# A failure leaves no cache (the launcher then runs without one) and is not an error; an interrupted JVM
# (Ctrl-C, SIGTERM, SIGHUP) ends the training with its status, so the launcher stops.
sylva_train_aot() {
  local java="$1" jar="$2" aot="$3" work rc=0
  sylva_utf8_names
  # in TMPDIR, else (unset to a folder that is missing or read-only) beside the caches: a passing problem with TMPDIR
  # is no reason to go without them until the next build
  work="$(mktemp -d "${TMPDIR:-/tmp}/sylva-aot.XXXXXX" 2>/dev/null)" \
    || work="$(mktemp -d "${aot%/*}/sylva-aot.XXXXXX")" || return 0
  # The siblings first, AOT_CACHE last: the launcher takes a build's caches as made when AOT_CACHE is newer than the
  # jar, so a training stopped half-way (a signal that ends the shell too) leaves it to be made again, the rest with it.
  # Made and checked with the JVM options of the runs it serves (sylva_add_java_args, less the cache itself):
  # a run whose module options differ from the training's (--enable-native-access did) has the JVM log an
  # error on every start and drop the cache's module handling (scripts/check-dist.sh watches for it).
  local SYLVA_OPTS=()
  # the small inputs' cache: trained on a small `sylva hdbscan` run with a report (waveforms drawn) and a saved
  # model, with their options (no Vector API module)
  sylva_add_java_args "$jar" /nonexistent no-vector-module
  sylva_add_jit_opts small
  sylva_train_cache "$java" "$jar" "${aot%.aot}-small.aot" "$work/small.aot" --small "$work/training-small" || rc=$?
  if [ "$rc" -eq 0 ]; then
    # few new points' cache: the same options, trained on a small fit saving its model and a prediction
    sylva_train_cache "$java" "$jar" "${aot%.aot}-small-predict.aot" "$work/small-predict.aot" --small-predict \
      "$work/training-small-predict" || rc=$?
  fi
  if [ "$rc" -eq 0 ]; then
    local vaot="${aot%.aot}-version.aot"
    sylva_train_run "$java" -XX:AOTCacheOutput="$work/version.aot" -Xlog:aot*=off -Xlog:cds*=off \
      -Dsylva.launcher=adds-vector-module -jar "$jar" --version || rc=$?
    if [ "$rc" -eq 0 ]; then mv -f "$work/version.aot" "$vaot.$$" && mv -f "$vaot.$$" "$vaot"; fi
    sylva_interrupted "$rc" || rc=0
  fi
  if [ "$rc" -eq 0 ]; then
    SYLVA_OPTS=()
    sylva_add_java_args "$jar" /nonexistent
    sylva_train_cache "$java" "$jar" "$aot" "$work/sylva.aot" "$work/training" || rc=$?
  fi
  rm -rf "$work"
  return "$rc"   # 0, made or not; 129, 130 or 143 where a JVM was interrupted (see sylva_train_cache)
}
