# Shared by the benchmark scripts (sourced from the project root): checks the tools they
# compare with, builds outline-render in release mode and sets $tool to it.
for needed in hyperfine cmark pandoc; do
  command -v "$needed" >/dev/null || { echo "error: $needed is needed (apt-get install $needed)"; exit 1; }
done
swift build -c release >/dev/null
tool=$PWD/.build/release/outline-render
