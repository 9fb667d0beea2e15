"""gpucmp's report: REPORT.md and its figures from gpucmp-bench result files.

scripts/report.py is the command line (cli.main); the modules:
  names     benchmark names, variants, the study's constants
  load      reading and merging result files into Bench rows
  analysis  pairing CUDA and OpenCL rows; PTX chains, best variant, peaks, bandwidth
  fmt       numbers, names and Markdown tables
  figures   the PNG figures (matplotlib)
  sections  one module per section of REPORT.md, listed in sections.SECTIONS
  build     runs the sections and writes REPORT.md
  counters, sass, skips: the evidence some sections read (ncu JSON, SASS, skip lists)

Import it with scripts/ on sys.path (report.py puts it there); gbench_json, the
result-file reader shared with compare.py and merge_results.py, lives there too."""
