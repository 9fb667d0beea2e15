"""What another program prints, the one way the scripts ask (nvidia-smi, nvcc,
mpirun, git, gpucmp-bench --list-devices): its stdout, or None where it cannot
run, takes over a minute, or exits non-zero."""
import subprocess


def command_output(*cmd, timeout=60):
    try:
        r = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout,
                           check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout if r.returncode == 0 else None
