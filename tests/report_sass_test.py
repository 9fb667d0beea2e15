#!/usr/bin/env python3
"""The SASS files the report's "Why each gap" reads (scripts/gpucmp_report/
sass.py): parsed by function and suffix, the kernel of each pair found (in
another .cu file of the workload too), and read from a folder's sass/ or from
the suite's sass.tar.xz. The SASS texts below are the fixtures
report_gaps_test.py uses too."""
import os
import shutil
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
from gpucmp_report import sass as report_sass  # noqa: E402

CUDA_SASS = """// SASS: cuobjdump -sass of gpucmp-bench (nvcc 13.0)
\tcode for sm_90
\t\tFunction : _Z9matrixMulILi16EEvPfPKfS2_i
        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */
        /*0010*/                   LDS.128 R4, [R2] ;
        /*0020*/                   LDS R8, [R3] ;
        /*0030*/                   FFMA R6, R4, R8, R6 ;
        /*0040*/                   FFMA R6, R5, R8, R6 ;
        /*0050*/              @!P0 BRA 0x10 ;
        /*0060*/                   EXIT ;
\t\tFunction : _Z9matrixMulILi32EEvPfPKfS2_i
        /*0000*/                   LDS.128 R4, [R2] ;
        /*0010*/                   LDS.128 R8, [R2+0x10] ;
        /*0020*/                   EXIT ;
"""
OPENCL_JIT_SASS = """// SASS: driver JIT (compute cache), driver 580.159.04
\t\tFunction : matrixMul
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDS R4, [R2] ;
        /*0020*/                   LDS R5, [R2+0x4] ;
        /*0030*/                   LDS R8, [R3] ;
        /*0040*/                   FFMA R6, R4, R8, R6 ;
        /*0050*/                   FFMA R6, R5, R8, R6 ;
        /*0060*/                   IMAD.MOV.U32 R9, RZ, RZ, R6 ;
        /*0070*/              @!P0 BRA 0x10 ;
        /*0080*/                   EXIT ;
"""
PTXAS_SASS = """// SASS: offline ptxas on OpenCL's PTX (a guess at what ran)
\t\tFunction : matrixMul
        /*0000*/                   HMMA.16816.F32 R4, R8, R12, R4 ;
"""


class Sass(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_sass_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_sass_files_parse_by_function_and_suffix(self):
        f = report_sass.SassFile("x/matrixmul.cuda.sass", CUDA_SASS)
        self.assertEqual((f.stem, f.source), ("matrixmul", "cuda"))
        self.assertEqual(f.origin, "cuobjdump -sass of gpucmp-bench (nvcc 13.0)")
        self.assertEqual(dict(f.functions["_Z9matrixMulILi32EEvPfPKfS2_i"]),
                         {"LDS.128": 2, "EXIT": 1})
        self.assertEqual(f.functions["_Z9matrixMulILi16EEvPfPKfS2_i"]["BRA"], 1)  # @!P0 dropped
        g = report_sass.SassFile("x/matrixMul-tile16.opencl-jit.sass", OPENCL_JIT_SASS)
        files = [f, g, report_sass.SassFile("x/matrixMul-tile16.opencl-ptxas.sass", PTXAS_SASS)]
        _, names, cuda = report_sass.select(files, "matrixMul", "tile32",
                                            lambda s: s == "cuda")
        self.assertEqual(names, ["_Z9matrixMulILi32EEvPfPKfS2_i"])
        _, _, opencl = report_sass.select(files, "matrixMul", "tile16",
                                          report_sass.is_opencl_jit)
        self.assertEqual(opencl["LDS"], 3)
        self.assertIsNone(report_sass.select(files, "matrixMul", "tile32",
                                             report_sass.is_opencl_jit))
        self.assertEqual(report_sass.differences({"A": 1, "B": 5}, {"A": 1, "B": 2, "C": 1}),
                         [("B", 5, 2), ("C", 0, 1)])

    def test_the_rows_own_cubin_is_preferred_to_a_dump_of_the_program(self):
        cuda = report_sass.SassFile("x/matrixmul.cuda.sass", CUDA_SASS)
        dump = report_sass.SassFile("x/matrixMul-tile16.opencl-jit.sass", OPENCL_JIT_SASS)
        row = report_sass.SassFile(
            "x/matrixMul-tile16.opencl-row.sass",
            "// SASS: NVIDIA OpenCL, gpucmp-bench matrixMul/opencl/tile16\n"
            "\t\tFunction : matrixMul\n"
            "        /*0000*/                   LDS.128 R4, [R2] ;\n"
            "        /*0010*/                   EXIT ;\n"
            "\t\tFunction : bufferFill\n"
            "        /*0000*/                   STG.E [R2], R4 ;\n")
        self.assertTrue(report_sass.is_opencl_row(row.source))
        self.assertFalse(report_sass.is_opencl_jit(row.source))
        text = "\n".join(report_sass.describe([cuda, dump, row], "matrixMul", "tile16"))
        self.assertIn("`matrixMul-tile16.opencl-row.sass`", text)
        self.assertNotIn("opencl-jit.sass`", text)
        self.assertIn("2 instructions in `matrixMul`", text)  # not the runtime's bufferFill
        text = "\n".join(report_sass.describe([cuda, dump], "matrixMul", "tile16"))
        self.assertIn("`matrixMul-tile16.opencl-jit.sass`", text)  # the dump where no row's

    def test_lavamd_picks_the_aos_kernel_of_its_alignment(self):
        prefix = "_ZN6gpucmp4cuda41_GLOBAL__N__x_9_lavamd_cu_y13lavamd_kernel"
        text = "// SASS: nvcc\n" + "".join(
            f"\t\tFunction : {prefix}ILi{layout}ELi32ELi{align}EEEvPfPKfS5_PKiS7_mf\n"
            f"        /*0000*/                   {op} R0, [UR4] ;\n"
            for layout in (0, 1) for align, op in ((4, "LDS"), (16, "LDS.128")))
        files = [report_sass.SassFile("x/lavamd.cuda.sass", text)]
        for variant, op in (("base", "LDS"), ("aligned", "LDS.128")):
            _, names, counts = report_sass.select(files, "lavamd", variant, lambda s: s == "cuda")
            self.assertEqual(len(names), 1, names)
            self.assertIn("ILi0ELi32ELi", names[0])  # the AoS kernel
            self.assertEqual(dict(counts), {op: 1})

    def test_the_gap_forms_pick_their_own_kernels(self):
        # cp's by-value and prefetch forms are kernels of their own in cp.cu and
        # in their programs; MRI's prefetch form is ComputeQ's third loop form.
        cp = "// SASS: nvcc\n" + "".join(
            f"\t\tFunction : _ZN6gpucmp4cuda7precise12_GLOBAL__N_1{name}EifPf\n"
            f"        /*0000*/                   {op} R0, [UR4] ;\n"
            for name, op in (("11cp_unrollx8", "LDC"), ("19cp_unrollx8_byvalue", "ULDC"),
                             ("20cp_unrollx8_prefetch", "LDC.64")))
        ocl = report_sass.SassFile("x/cp-unrollx8-byvalue.opencl-jit.sass",
                                   "// SASS: driver JIT\n" + "".join(
                                       f"\t\tFunction : {k}\n        /*0000*/  {op} R0 ;\n"
                                       for k, op in (("cp_unrollx8", "LDG"),
                                                     ("cp_unrollx8_byvalue", "ULDC"))))
        files = [report_sass.SassFile("x/cp.cuda.sass", cp), ocl]
        for variant, op in (("unrollx8", "LDC"), ("unrollx8-byvalue", "ULDC"),
                            ("unrollx8-ieee-prefetch", "LDC.64")):
            _, _, counts = report_sass.select(files, "cp", variant, lambda s: s == "cuda")
            self.assertEqual(dict(counts), {op: 1}, variant)
        _, names, _ = report_sass.select(files, "cp", "unrollx8-byvalue",
                                         report_sass.is_opencl_jit)
        self.assertEqual(names, ["cp_unrollx8_byvalue"])
        mri = "// SASS: nvcc\n" + "".join(
            f"\t\tFunction : _ZN6gpucmp4cuda8ComputeQILNS_3mri5KLoopE{loop}EEEviiPKf\n"
            f"        /*0000*/                   {op} R0, [UR4] ;\n"
            for loop, op in ((0, "LDC"), (1, "ULDC"), (2, "LDC.64")))
        for variant, op in (("precise", "LDC"), ("uniform-tile", "ULDC"),
                            ("precise-prefetch", "LDC.64")):
            _, _, counts = report_sass.select([report_sass.SassFile("x/mriq.cuda.sass", mri)],
                                              "mriq", variant, lambda s: s == "cuda")
            self.assertEqual(dict(counts), {op: 1}, variant)

    def test_mri_by_value_rows_pick_their_own_kernels(self):
        # MRI's by-value form (mri::KFrom::byvalue) is a kernel of its own in
        # mriq.cu / mrifhd.cu (each math mode's file) and in its programs.
        for workload, kernel in (("mriq", "ComputeQ"), ("mrifhd", "ComputeFH")):
            ns = "_ZN6gpucmp4cuda{}12_GLOBAL__N_1"
            plain = f"{len(kernel) + 1}{kernel}ILNS_3mri5KLoopE0EEEviiPKf"
            byvalue = f"{len(kernel) + 7}{kernel}ByValueEiiPKfS4_S4_PfS5_NS2_7KChunkE"
            forms = (("", "7precise", "ULDC"), ("-fast", "4fast", "LDC.64"))
            files = [report_sass.SassFile(
                f"x/{workload}{stem}.cuda.sass", "// SASS: nvcc\n" + "".join(
                    f"\t\tFunction : {ns.format(math)}{name}\n        /*0000*/  {op} R0 ;\n"
                    for name, op in ((plain, "LDC"), (byvalue, op_byvalue))))
                for stem, math, op_byvalue in forms]
            files.append(report_sass.SassFile(
                f"x/{workload}-precise-byvalue.opencl-jit.sass", "// SASS: driver JIT\n" + "".join(
                    f"\t\tFunction : {k}\n        /*0000*/  {op} R0 ;\n"
                    for k, op in ((kernel, "LDG"), (kernel + "ByValue", "ULDC")))))
            for variant, op in (("precise", "LDC"), ("precise-byvalue", "ULDC"),
                                ("fast-byvalue", "LDC.64")):
                _, names, counts = report_sass.select(files, workload, variant,
                                                      lambda s: s == "cuda")
                self.assertEqual(dict(counts), {op: 1}, (workload, variant, names))
            _, names, counts = report_sass.select(files, workload, "precise-byvalue",
                                                  report_sass.is_opencl_jit)
            self.assertEqual((names, dict(counts)), ([kernel + "ByValue"], {"ULDC": 1}))

    def test_reduce_and_scan_compare_one_instantiation_with_the_build_that_ran(self):
        # CUDA's cubins hold every word type and alpha; the pair is the float
        # kernel (alpha 32 for scan's alpha and onepass), beside OpenCL's float
        # program, for scan's alpha its alpha-32 build only.
        kernels = {"10scan_tilesINS0_8agpu_ops8SumFloatELi32ELb0EfEEv": "LDS.128",
                   "10scan_tilesINS0_8agpu_ops8SumFloatELi32ELb1EfEEv": "STS.128",
                   "10scan_tilesINS0_8agpu_ops8SumFloatELi16ELb0EfEEv": "LDS.64",
                   "10scan_tilesINS0_8agpu_ops5Sum32ELi32EjEEv": "STS",
                   "14scan_tile_sumsINS0_8agpu_ops8SumFloatELi32EfEEv": "BAR",
                   "13scan_lookbackINS0_8agpu_ops8SumFloatEfEEv": "LDG",
                   "13scan_lookbackINS0_8agpu_ops5Sum32EjEEv": "STG"}
        cu = report_sass.SassFile("x/scan.cuda.sass", "// SASS: nvcc\n" + "".join(
            f"\t\tFunction : _ZN6gpucmp4cuda12_GLOBAL__N_1{name}\n"
            f"        /*0000*/  {op} R0, [R2] ;\n" for name, op in kernels.items()))
        _, names, counts = report_sass.select([cu], "scan", "alpha", lambda s: s == "cuda")
        self.assertEqual(dict(counts), {"LDS.128": 1}, names)  # not the load:batched kernel
        # An archive from before the load-order parameter names the kernel without it.
        older = report_sass.SassFile("x/scan.cuda.sass", "// SASS: nvcc\n\t\tFunction : "
                                     "_ZN6gpucmp4cuda12_GLOBAL__N_110scan_tilesINS0_8agpu_ops"
                                     "8SumFloatELi32EfEEv\n        /*0000*/  LDS.64 R0, [R2] ;\n")
        _, _, counts = report_sass.select([older], "scan", "alpha", lambda s: s == "cuda")
        self.assertEqual(dict(counts), {"LDS.64": 1})
        _, _, counts = report_sass.select([cu], "scan", "lookback", lambda s: s == "cuda")
        self.assertEqual(dict(counts), {"LDG": 1})

        def ocl(path, op):
            return report_sass.SassFile(path, "// SASS: driver JIT\n" + "".join(
                f"\t\tFunction : {k}\n        /*0000*/  {o} R0 ;\n"
                for k, o in (("scan_tiles", op), ("scan_sums", "BAR"))))
        run_time_alpha = ocl("x/scan-alpha.opencl-jit.sass", "BRA")
        self.assertIsNone(report_sass.select([cu, run_time_alpha], "scan", "alpha",
                                             report_sass.is_opencl_jit))
        self.assertIn("`scan-alpha-a32` build",
                      report_sass.describe([cu, run_time_alpha], "scan", "alpha")[0])
        f, names, counts = report_sass.select(
            [cu, run_time_alpha, ocl("x/scan-alpha-a32.opencl-jit.sass", "LDS.128")], "scan",
            "alpha", report_sass.is_opencl_jit)
        self.assertEqual((os.path.basename(f.path), names, dict(counts)),
                         ("scan-alpha-a32.opencl-jit.sass", ["scan_tiles"], {"LDS.128": 1}))

    def test_a_kernel_in_another_cu_file_of_the_workload_is_found(self):
        def sass(kernels):
            return "// SASS: nvcc\n" + "".join(
                f"\t\tFunction : _ZN6gpucmp4cuda{name}PKfPfiiiifff\n"
                f"        /*0000*/                   {op} R0, [UR4] ;\n" for name, op in kernels)
        files = [report_sass.SassFile("x/advection.cuda.sass",
                                      sass([("16advection_streamE", "LDS"),
                                            ("17advection_weightsE", "LDG")])),
                 report_sass.SassFile("x/advection_async.cuda.sass",
                                      sass([("15advection_asyncILb1EEEv", "LDGSTS"),
                                            ("15advection_asyncILb0EEEv", "LDG")]))]
        f, names, counts = report_sass.select(files, "advection", "async", lambda s: s == "cuda")
        self.assertEqual(os.path.basename(f.path), "advection_async.cuda.sass")
        self.assertEqual(dict(counts), {"LDGSTS": 1})  # not ring's instantiation too
        f, names, counts = report_sass.select(files, "advection", "ring", lambda s: s == "cuda")
        self.assertEqual(dict(counts), {"LDG": 1})
        f, names, counts = report_sass.select(files, "advection", "stream", lambda s: s == "cuda")
        self.assertEqual(os.path.basename(f.path), "advection.cuda.sass")
        self.assertEqual(dict(counts), {"LDS": 1})

    def test_advection_one_gpu_kernels_not_their_two_gpu_instantiations(self):
        # Each kernel's template flag Peer (true: rows also stored into a neighbour
        # GPU's buffer, the two-GPU rows' over:p2p) doubles its functions; a
        # one-GPU pair's SASS is the Peer = false one, never the sum.
        def fn(name, op):
            return (f"\t\tFunction : _ZN6gpucmp4cuda{name}PKfPfiiiifffNS0_10PeerStoresE\n"
                    f"        /*0000*/                   {op} R0, [UR4] ;\n")
        cu = report_sass.SassFile("x/advection.cuda.sass", "// SASS: nvcc\n" + "".join([
            fn("17advection_blockedINS1_10BranchFreeELb0EEEv", "LDS"),
            fn("17advection_blockedINS1_10BranchFreeELb1EEEv", "STG"),
            fn("17advection_blockedINS1_9TwoBranchELb0EEEv", "FSEL"),
            fn("17advection_blockedINS1_9TwoBranchELb1EEEv", "STG"),
            fn("16advection_streamILb0EEEv", "BAR"),
            fn("16advection_streamILb1EEEv", "STG")]))
        ocl = report_sass.SassFile("x/advection-branchy.opencl-jit.sass",
                                   "// SASS: driver JIT\n" + "".join(
                                       f"\t\tFunction : {k}\n        /*0000*/  {op} R0 ;\n"
                                       for k, op in (("advection_blocked", "FSEL"),
                                                     ("advection_plain", "LDG"))))
        for variant, op in (("blocked", "LDS"), ("branchy", "FSEL"), ("stream", "BAR")):
            _, names, counts = report_sass.select([cu], "advection", variant,
                                                  lambda s: s == "cuda")
            self.assertEqual(dict(counts), {op: 1}, (variant, names))
        _, names, counts = report_sass.select([ocl], "advection", "branchy",
                                              report_sass.is_opencl_jit)
        self.assertEqual(names, ["advection_blocked"])  # not every kernel of the program

    def test_sass_is_read_from_the_suites_archive_too(self):
        folder = os.path.join(self.tmp, "arch")
        os.makedirs(os.path.join(folder, "sass"))
        for name, text in (("matrixmul.cuda.sass", CUDA_SASS),
                           ("matrixMul-tile16.opencl-jit.sass", OPENCL_JIT_SASS)):
            with open(os.path.join(folder, "sass", name), "w") as f:
                f.write(text)
        with tarfile.open(os.path.join(folder, "sass.tar.xz"), "w:xz") as tar:
            tar.add(os.path.join(folder, "sass"), arcname="sass")
        shutil.rmtree(os.path.join(folder, "sass"))
        files = report_sass.load([folder])
        self.assertEqual([os.path.basename(f.path) for f in files],
                         ["matrixMul-tile16.opencl-jit.sass", "matrixmul.cuda.sass"])
        self.assertEqual(files[1].source, "cuda")
        with open(os.path.join(folder, "sass.tar.xz"), "wb") as f:
            f.write(b"not an archive")
        self.assertEqual(report_sass.load([folder]), [])


if __name__ == "__main__":
    unittest.main()
