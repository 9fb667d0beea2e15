"""What Rodinia 3.1's heartwall prints and writes, as the tests of
scripts/rodinia_heartwall.py (rodinia_heartwall_test.py, whose stub programs
print and write them, and rodinia_heartwall_rows_test.py) use it: the OpenCL
and CUDA versions' output (written from their source, cuda/heartwall/main.cu and
opencl/heartwall/main.c + kernel/kernel_gpu_opencl_wrapper.c, not captured from
a run; PoCL's platform and device lines as an H200 run printed them), the
points, and result.txt."""

# Written from Rodinia 3.1's opencl/heartwall (main.c's "DISPLAY TIMING" block, whose
# "% :" glibc prints as is; the wrapper's platform and device lines): not a captured run.
OPENCL_SAMPLE = """WG size of kernel = 256 \n# of platforms 1
\tPlatform 0: NVIDIA Corporation
Selecting platform 0
# of devices 1
\tDevice 0: NVIDIA H100 80GB HBM3
Selecting device 0
-----OpenCL Compiler Output-----
--------------------------------
tSize is 25, sSize is 40
# of workgroups = 51, # of threads/workgroup = 256 (ensure that device can handle)
frame progress: 0 1 2 3 4 \nTime spent in different stages of the application:
 0.000061000000 s,  0.012135000000 % : READ INITIAL VIDEO FRAME
 0.000001000000 s,  0.000199000000 % : READ COMMAND LINE PARAMETERS
 0.000050000000 s,  0.009947000000 % : READ INPUTS FROM FILE
 0.502383000000 s, 99.946990966797 % : GPU ALLOCATION, COPYING, COMPUTATION
 0.000157000000 s,  0.031234000000 % : FREE MEMORY
Total time:
 0.502652000000 s
"""
# The wrapper's lines where the ICD loader gave it PoCL first (as an H200 run printed them).
POCL_NAMES = ("\tPlatform 0: The pocl project", "\tDevice 0: cpu-skylake-avx512-Intel(R) Xeon(R) "
              "Processor")
POCL_SAMPLE = OPENCL_SAMPLE.replace("\tPlatform 0: NVIDIA Corporation", POCL_NAMES[0]).replace(
    "\tDevice 0: NVIDIA H100 80GB HBM3", POCL_NAMES[1])
# Written from Rodinia 3.1's cuda/heartwall/main.cu: it prints no time.
CUDA_SAMPLE = "WG size of kernel = 256 \nframe progress: 0 1 2 3 4 \n"

POINTS = [(100, 200), (110, 210), (300, 400), (310, 410), (320, 420)]  # 2 endo, 3 epi


def result_txt(frames, video_frames, shift=None, garbage=False):
    """result.txt as Rodinia's write_data() prints it; `shift` moves point 1 at frame 2;
    `garbage`: every value one number (what Rodinia's CUDA version writes without a GPU)."""
    out = f"Total AVI Frames: {video_frames}\nFrames Processed: {frames}\nendoPoints: 2\n" \
          "epiPoints: 3"
    for f in range(frames):
        pts = [(r + f, c) for r, c in POINTS]
        if shift and f == 2:
            pts[1] = (pts[1][0] + 3, pts[1][1] + 4)
        if garbage:
            pts = [(-1715528512, -1715528512)] * len(pts)
        out += f"\n---Frame {f}---\n--endo--\n"
        out += "".join(f"{r}\t" for r, _ in pts[:2]) + "\n" + "".join(f"{c}\t" for _, c in pts[:2])
        out += "\n--epi--\n"
        out += "".join(f"{r}\t" for r, _ in pts[2:]) + "\n" + "".join(f"{c}\t" for _, c in pts[2:])
    return out

