// The PTX intermediate representation: what parse() builds, print() writes back,
// and normalize(), the CFG, stats and diff work on. It keeps enough to print back
// PTX that assembles to the same code (comments and blank lines are the only
// things that may go; full-line comments are kept as statements).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpucmp::ptx {

// One instruction operand. `text` is the operand as written in the source; the
// structured fields are what the printer uses (str()), so edits to them (e.g.
// register renaming) show up in print().
struct Operand {
  enum class Kind {
    Register,         // %r1, %rd2, %SPL, temp_param_reg (a declared name)
    SpecialRegister,  // %tid.x, %ctaid.y, %envreg3, %laneid
    Immediate,        // 42, -1, 0x1F, 7U
    FloatImmediate,   // 0f3F800000, 0d3FF0000000000000, 1.5
    Vector,           // {%f1, %f2, _, %f4}
    Memory,           // [%rd1+16], [name], [name+4], [tex, {%f1, %f2}]
    Symbol,           // a label or symbol name, optionally +offset: $L__BB0_2, name+4
    Sink,             // _
    PredicatePair,    // %p1|%p2 (setp with two destinations)
    List,             // (param0, param1): call arguments and results
  };

  Kind kind = Kind::Symbol;
  std::string text;  // as written in the source ("" when built by code)
  // Register / SpecialRegister / Symbol: the name. Memory: the base (register,
  // symbol or empty for an absolute address).
  std::string name;
  bool negated = false;           // !%p1 (a negated predicate source)
  std::int64_t offset = 0;        // Memory and Symbol: the +/- offset
  bool has_offset = false;        // whether an offset was written ([%r1+0] stays so)
  std::string value;              // Immediate / FloatImmediate: the literal text
  std::vector<Operand> elements;  // Vector, PredicatePair, List; Memory: extra
                                  // elements after the address ([tex, {...}])

  std::string str() const;  // canonical text from the structured fields
  bool is_register() const { return kind == Kind::Register; }
};

struct Instruction {
  std::optional<std::string> guard;  // predicate register of @%p1 / @!%p1
  bool guard_negated = false;
  std::string opcode;                  // "ld"
  std::vector<std::string> modifiers;  // {"global", "nc", "v4", "f32"}, no dots
  std::vector<Operand> operands;

  std::string full_opcode() const;  // "ld.global.nc.v4.f32"
  std::string type() const;         // last type-like modifier ("f32"), or ""
  bool has_modifier(const std::string& m) const;
};

// One declarator of a variable or register declaration: `%r<6>`, `%SP`,
// `As[1024]`, `tbl[4] = {1, 2, 3, 4}`.
struct Declarator {
  std::string name;
  std::optional<long long> range;  // %r<6> -> 6 (declares %r0 .. %r5)
  std::string array;               // "[1024]", "[]", "[2][3]" or ""
  std::string initializer;         // "{1, 2}" or "" (without the '=')
};

// A declaration: .reg, .local, .shared, .const, .global, .param (in call blocks),
// at module level or in a function body.
struct VarDecl {
  std::vector<std::string> linkage;     // ".visible", ".extern", ".weak", ".common"
  std::string space;                    // ".reg", ".shared", ".const", ...
  std::optional<long long> align;       // .align N
  std::vector<std::string> types;       // {".b8"} or {".v4", ".f32"}, with dots
  std::vector<std::string> attributes;  // anything else written before the name
  std::vector<Declarator> declarators;
};

// A directive kept as written: .loc, .file, .section, .callprototype, unknown
// ones. `text` holds the directive from its name on, canonically spaced and
// including the ';' when it had one.
struct Directive {
  std::string name;  // ".loc"
  std::string text;  // ".loc 1 23 4"
};

struct Statement {
  enum class Kind {
    Instruction,
    Label,       // $L__BB0_2:
    RegDecl,     // .reg ...
    VarDecl,     // .local / .shared / .param / .const / .global in a body
    ScopeOpen,   // {  (call blocks)
    ScopeClose,  // }
    Pragma,      // .pragma "nounroll";
    Directive,   // .loc, .file, ... kept verbatim
    Comment,     // a comment on a line of its own, "// ..."
  };
  Kind kind = Kind::Instruction;
  int line = 0;  // source line (0 when built by code)

  Instruction instruction;               // Kind::Instruction
  std::string label;                     // Kind::Label: the name, without ':'
  VarDecl decl;                          // Kind::RegDecl, Kind::VarDecl
  std::vector<std::string> pragma_args;  // Kind::Pragma: the quoted strings
  Directive directive;                   // Kind::Directive
  std::string comment;                   // Kind::Comment: "// ..." as written
};

// A kernel or function parameter: `.param .u64 .ptr .global .align 4 name`,
// `.param .align 8 .b8 name[16]`, `.reg .b32 x`.
struct Param {
  std::string space;                   // ".param" or ".reg"
  std::optional<long long> align;      // .align before the type
  std::vector<std::string> types;      // {".u64"}
  bool is_ptr = false;                 // .ptr
  std::string ptr_space;               // ".global", ".shared", ".const", ".local", ""
  std::optional<long long> ptr_align;  // .align after .ptr
  std::string name;
  std::string array;  // "[16]" or ""
  std::string raw;    // the parameter as written (canonical spacing)
};

// A performance or other directive between the parameter list and the body:
// .maxntid 256, 1, 1 / .reqntid / .minnctapersm / .maxnreg / .noreturn / .pragma.
struct FunctionDirective {
  std::string name;               // ".maxntid"
  std::vector<std::string> args;  // {"256", "1", "1"}; a .pragma keeps quotes
};

// A basic block: statements [begin, end) of the function body.
struct BasicBlock {
  int begin = 0;
  int end = 0;
  std::vector<std::string> labels;  // labels at the top of the block
  std::vector<int> successors;
  std::vector<int> predecessors;
};

struct Function {
  std::vector<std::string> linkage;  // ".visible", ".weak", ".extern"
  bool is_entry = false;             // .entry (kernel) vs .func
  std::string name;
  std::optional<std::vector<Param>> return_params;  // .func (.param .b32 r) f
  std::vector<Param> params;
  std::vector<FunctionDirective> directives;
  bool has_body = false;  // false for prototypes (`.extern .func f(...);`)
  std::vector<Statement> body;
  std::vector<BasicBlock> blocks;  // built by build_blocks() (cfg.h)
  int line = 0;
};

struct ModuleItem {
  // Header: where .version/.target/.address_size stand (printed first when a
  // module has no Header item).
  enum class Kind { Header, Comment, Directive, Variable, Function };
  Kind kind = Kind::Comment;
  std::string comment;  // Kind::Comment
  Directive directive;  // Kind::Directive (.file, .section, .pragma, unknown)
  VarDecl variable;     // Kind::Variable
  int function = -1;    // Kind::Function: index into Module::functions
};

struct Module {
  std::string filename;
  std::optional<std::string> version;     // "9.0"
  std::vector<std::string> targets;       // {"sm_90", "texmode_independent"}
  std::optional<long long> address_size;  // 64
  std::vector<ModuleItem> items;          // in source order
  std::vector<Function> functions;        // definitions and prototypes

  // The first target that names an architecture ("sm_90"), or "".
  std::string sm_target() const;
  const Function* find_function(const std::string& name) const;
};

// The bytes of a by-value aggregate parameter, `.param .align A .b8 name[N]`:
// N; nullopt for any other parameter (a scalar, a pointer, another element
// type, an unsized or multi-dimensional array).
std::optional<std::size_t> byte_array_size(const Param& p);

// PTX type names, without the dot: b8..b128, u8..u64, s8..s64, f16, f16x2, bf16,
// bf16x2, tf32, f32, f64, pred, e4m3... Used to pick Instruction::type().
bool is_type_name(const std::string& s);

}  // namespace gpucmp::ptx
