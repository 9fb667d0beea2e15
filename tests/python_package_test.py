#!/usr/bin/env python3
"""The Python side as a distribution: pyproject.toml lists every module and
package of scripts/, every command it installs calls a main() that reads its
own arguments and answers --help where setup.sh installed it, and no circle
runs among the modules of gpucmp_report (imports inside functions included)."""
import ast
import os
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")


class Packaging(unittest.TestCase):
    """pyproject.toml: the distribution setup.sh installs into .venv."""

    def setUp(self):
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            self.skipTest("no tomllib")
        with open(os.path.join(SCRIPTS, "..", "pyproject.toml"), "rb") as f:
            self.project = tomllib.load(f)

    def test_every_script_module_and_package_is_in_the_distribution(self):
        tools = self.project["tool"]["setuptools"]
        modules = sorted(f[:-3] for f in os.listdir(SCRIPTS) if f.endswith(".py"))
        self.assertEqual(sorted(tools["py-modules"]), modules)
        packages = sorted(os.path.relpath(folder, SCRIPTS).replace(os.sep, ".")
                          for folder, _, files in os.walk(SCRIPTS)
                          if "__init__.py" in files and "__pycache__" not in folder)
        self.assertEqual(sorted(tools["packages"]), packages)

    def test_every_command_calls_a_main_that_reads_its_own_arguments(self):
        for command, target in self.project["project"]["scripts"].items():
            module, _, function = target.partition(":")
            with open(os.path.join(SCRIPTS, module + ".py"), encoding="utf-8") as f:
                tree = ast.parse(f.read())
            mains = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function]
            self.assertEqual(len(mains), 1, command)
            args = mains[0].args
            # Callable without arguments (argv defaults to sys.argv[1:]).
            self.assertEqual(len(args.args), len(args.defaults), command)

    def test_installed_commands_run_where_setup_made_them(self):
        venv_bin = os.path.join(SCRIPTS, "..", ".venv", "bin")
        if not os.path.exists(os.path.join(venv_bin, "gpucmp-report")):
            self.skipTest("no .venv with gpucmp-tools (scripts/setup.sh makes it)")
        for command in self.project["project"]["scripts"]:
            r = subprocess.run([os.path.join(venv_bin, command), "--help"], capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(r.returncode, 0, command + ": " + r.stderr)
            self.assertIn("usage", r.stdout.lower(), command)


class ImportCircles(unittest.TestCase):
    def test_no_import_circle_among_the_modules(self):
        # Every relative import, at the top or inside a function: the modules
        # of gpucmp_report import each other one way only.
        package = os.path.join(SCRIPTS, "gpucmp_report")
        graph = {}
        for folder, _, files in os.walk(package):
            for f in files:
                if not f.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(folder, f), package)[: -len(".py")]
                module = rel.replace(os.sep, ".").removesuffix(".__init__")
                parts = module.split(".") if module != "__init__" else []
                with open(os.path.join(folder, f), encoding="utf-8") as src:
                    tree = ast.parse(src.read())
                targets = set()
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and node.level > 0:
                        here = parts[:-1] if f != "__init__.py" else parts
                        base = here[: len(here) - (node.level - 1)]
                        if node.module:
                            targets.add(".".join(base + node.module.split(".")))
                        else:
                            targets.update(".".join(base + [a.name]) for a in node.names)
                graph[module if parts else ""] = {t for t in targets if t != module}
        state = {}

        def visit(m, path):
            if state.get(m) == "open":
                self.fail("import circle: " + " -> ".join(path + [m]))
            if state.get(m) == "done" or m not in graph:
                return
            state[m] = "open"
            for t in sorted(graph[m]):
                visit(t, path + [m])
            state[m] = "done"

        for m in sorted(graph):
            visit(m, [])


if __name__ == "__main__":
    unittest.main()
