# Rewrites nvcc's PTX of matrixMul<16> to OpenCL's conventions, in steps.
import re
import sys
src = open(sys.argv[1]).read()
# keep only the tile16 kernel
entries = re.split(r'(?=^\.visible \.entry|^\.entry)', src, flags=re.M)
head, kernels = entries[0], [e for e in entries[1:] if 'matrixMulILi16' in e]
k = kernels[0]
mangled = re.search(r'\.entry\s+(\S+)\(', k).group(1)
def write(name, text):
    open(name, 'w').write(text)
    print('wrote', name)
write('A-asis.ptx', head + k)
t = (head + k).replace(mangled, 'matrixMul')
t = t.replace('.target sm_90', '.target sm_90, texmode_independent')
t = re.sub(r'\.visible \.entry', '.entry', t)
write('B-name-texmode.ptx', t)
t2 = re.sub(r'\.param \.u64 (matrixMul_param_[012])', r'.param .u64 .ptr .global .align 4 \1', t)
write('C-ptrglobal.ptx', t2)
t3 = re.sub(r'cvta\.to\.global\.u64\s+(%rd\d+),\s*(%rd\d+);', r'mov.u64 \1, \2;', t2)
write('D-nocvta.ptx', t3)
t4 = re.sub(r'cvta\.to\.global\.u64\s+(%rd\d+),\s*(%rd\d+);', r'mov.u64 \1, \2;', t)
write('E-nocvta-noptr.ptx', t4)
