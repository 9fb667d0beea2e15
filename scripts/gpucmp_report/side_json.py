"""The report's side files made by other tools (jacobi.json of
scripts/jacobi_reference.py, kernel-tuner.json of scripts/kernel_tuner_side.py):
each a JSON object with a list of items and, optionally, an object about the
run, read and checked the same way."""
from .counters import InputError as CountersInputError
from .counters import read_json


def read_docs(paths, items, meta, what, error, check_item):
    """[(path, document)] of `paths` in order. Each must be an object whose
    `items` is a list (each item passed to check_item(path, index, item)) and
    whose `meta`, where present, is an object; else `error` (an exception
    class) with one line naming the file and `what` it should be."""
    docs = []
    for path in paths:
        try:
            doc = read_json(path)
        except CountersInputError as e:
            raise error(str(e)) from e
        if not isinstance(doc, dict) or not isinstance(doc.get(items), list) or \
                not isinstance(doc.get(meta, {}), dict):
            raise error(f"{path}: not {what} (an object with \"{meta}\" and a list \"{items}\")")
        for i, item in enumerate(doc[items]):
            check_item(path, i, item)
        docs.append((path, doc))
    return docs
