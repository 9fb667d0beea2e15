"""Not measured: error and skipped rows, and the benchmarks the contexts list as
skipped without a row, per API and reason."""
from .. import skips
from ..fmt import md_table
from ..names import APIS, API_LABEL, JIT_PART


def section(rep):
    contexts, benches, missing = rep.contexts, rep.benches, rep.missing
    md = ["## Not measured", ""]
    skipped = skips.skipped_groups(contexts, list(benches) + [k for k, _, _ in missing],
                                          JIT_PART)
    if missing:
        reasons = {}
        for key, reason, _path in missing:
            reasons.setdefault(reason, []).append(key)
        md += md_table(["reason", "benchmarks"],
                       [(reason.replace("|", "\\|"), ", ".join(f"`{k}`" for k in keys[:8]) +
                         (f" and {len(keys) - 8} more" if len(keys) > 8 else ""))
                        for reason, keys in sorted(reasons.items())])
        md += [""] if skipped else []
    if skipped:
        md += skips.skipped_table(skipped, APIS, API_LABEL, md_table)
    if not missing and not skipped:
        md += ["Every benchmark in the input was measured (no error or skipped rows)."]
    md.append("")
    return md
