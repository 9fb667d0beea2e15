#include "parser.h"

#include <cctype>

#include "cfg.h"
#include "files.h"
#include "instruction_parser.h"
#include "lexer.h"
#include "literals.h"
#include "registers.h"
#include "token_stream.h"

namespace gpucmp::ptx {
namespace {

bool is_state_space(std::string_view d) {
  return d == ".reg" || d == ".sreg" || d == ".const" || d == ".global" || d == ".local" ||
         d == ".param" || d == ".shared" || d == ".tex";
}
bool is_linkage(std::string_view d) {
  return d == ".visible" || d == ".extern" || d == ".weak" || d == ".common";
}
bool is_pointer_space(std::string_view d) {
  return d == ".global" || d == ".shared" || d == ".const" || d == ".local";
}
bool is_vector_modifier(std::string_view d) { return d == ".v2" || d == ".v4" || d == ".v8"; }
bool is_line_directive(std::string_view d) { return d == ".loc" || d == ".file"; }

class Parser : private InstructionParser {
 public:
  Parser(std::string_view text, const std::string& filename) : InstructionParser(text, filename) {}

  Module module() {
    Module m;
    m.filename = filename();
    while (true) {
      for (const Token* c : take_comments()) {
        ModuleItem item;
        item.kind = ModuleItem::Kind::Comment;
        item.comment = std::string(c->text);
        m.items.push_back(std::move(item));
      }
      const Token& t = cur();
      if (t.kind == Token::Kind::End) break;
      if (!t.is_directive()) fail("a directive or declaration");
      module_directive(m);
    }
    return m;
  }

 private:
  // ---- directives kept as text ---------------------------------------------
  // .loc / .file: the rest of the line.
  Directive line_directive() {
    const std::string name(cur().text);
    return Directive{name, rest_of_line()};
  }
  // Anything else: up to and including the ';'.
  Directive semicolon_directive() {
    const std::string name(cur().text);
    return Directive{name, through_semicolon("';' ending " + name)};
  }
  // .section name { ... }: kept byte for byte (DWARF sections can be long).
  Directive section_directive() {
    const std::size_t start = position();
    take();
    if (cur().kind != Token::Kind::Word) fail("a section name like .debug_info");
    take();
    if (!cur().is('{')) fail("'{' opening the .section contents");
    return Directive{".section", source_through_closing_brace(start, "'}' closing .section")};
  }
  // .metadata_section { .metadata 0 { ... } }: NVIDIA's OpenCL PTX names a
  // kernel's attributes there (reqd_work_group_size); kept byte for byte.
  Directive metadata_section_directive() {
    const std::size_t start = position();
    take();
    if (!cur().is('{')) fail("'{' opening the .metadata_section contents");
    return Directive{".metadata_section",
                     source_through_closing_brace(start, "'}' closing .metadata_section")};
  }

  // ---- module level ----------------------------------------------------------
  void module_directive(Module& m) {
    const Token& t = cur();
    const std::string_view d = t.text;
    if (d == ".version") {
      if (m.version) fail("one .version directive");
      take();
      mark_header(m);
      const Token& v = cur();
      if (v.kind != Token::Kind::Number || !is_version_number(v.text)) fail("a version like 9.0");
      m.version = std::string(take().text);
    } else if (d == ".target") {
      if (!m.targets.empty()) fail("one .target directive");
      take();
      mark_header(m);
      do m.targets.push_back(name("a target name like sm_90"));
      while (accept(','));
    } else if (d == ".address_size") {
      if (m.address_size) fail("one .address_size directive");
      take();
      mark_header(m);
      m.address_size = integer("an address size (32 or 64)");
    } else if (is_line_directive(d) || d == ".section" || d == ".metadata_section") {
      ModuleItem item;
      item.kind = ModuleItem::Kind::Directive;
      item.directive = d == ".section"            ? section_directive()
                       : d == ".metadata_section" ? metadata_section_directive()
                                                  : line_directive();
      m.items.push_back(std::move(item));
    } else if (is_linkage(d) || is_state_space(d) || d == ".entry" || d == ".func") {
      declaration(m);
    } else {
      ModuleItem item;
      item.kind = ModuleItem::Kind::Directive;
      item.directive = semicolon_directive();
      m.items.push_back(std::move(item));
    }
  }

  // The header prints where its first directive stood.
  void mark_header(Module& m) {
    if (!header_marked_) m.items.push_back(ModuleItem{ModuleItem::Kind::Header, {}, {}, {}, -1});
    header_marked_ = true;
  }

  void declaration(Module& m) {
    const int line = cur().line;
    std::vector<std::string> linkage;
    while (cur().is_directive() && is_linkage(cur().text)) linkage.emplace_back(take().text);
    const std::string_view d = cur().text;
    if (d == ".entry" || d == ".func") {
      Function f = function(std::move(linkage), line);
      ModuleItem item;
      item.kind = ModuleItem::Kind::Function;
      item.function = static_cast<int>(m.functions.size());
      m.functions.push_back(std::move(f));
      m.items.push_back(std::move(item));
    } else if (cur().is_directive() && is_state_space(d)) {
      ModuleItem item;
      item.kind = ModuleItem::Kind::Variable;
      item.variable = var_decl(std::move(linkage));
      m.items.push_back(std::move(item));
    } else {
      fail("'.entry', '.func' or a state space after the linkage");
    }
  }

  // ---- declarations ----------------------------------------------------------
  VarDecl var_decl(std::vector<std::string> linkage) {
    VarDecl d;
    d.linkage = std::move(linkage);
    d.space = std::string(take().text);
    while (cur().is_directive()) {
      const std::string t(take().text);
      if (t == ".align") {
        d.align = integer("an alignment");
      } else if (is_vector_modifier(t) || is_type_name(t.substr(1))) {
        d.types.push_back(t);
      } else {
        d.attributes.push_back(t);
      }
    }
    if (d.types.empty() && d.attributes.empty()) fail("a type after " + d.space);
    do d.declarators.push_back(declarator());
    while (accept(','));
    expect(';');
    return d;
  }

  Declarator declarator() {
    Declarator decl;
    decl.name = name("a variable name");
    if (accept('<')) {
      decl.range = integer("a register count");
      expect('>');
    }
    decl.array = array_dimensions();
    if (accept('=')) decl.initializer = initializer();
    return decl;
  }

  std::string array_dimensions() {
    std::string out;
    while (accept('[')) {
      out += "[";
      if (!cur().is(']')) out += std::to_string(integer("an array size"));
      expect(']');
      out += "]";
    }
    return out;
  }

  // Tokens up to the ',' or ';' that ends the declarator, braces balanced.
  std::string initializer() {
    const std::size_t start = position();
    int depth = 0;
    while (true) {
      const Token& t = cur();
      if (t.kind == Token::Kind::End) fail("';' ending the initializer");
      if (t.is(';') && depth > 0) fail("'}' closing the initializer");
      if (depth == 0 && (t.is(',') || t.is(';'))) break;
      if (t.is('{') || t.is('(')) ++depth;
      if ((t.is('}') || t.is(')')) && --depth < 0) fail("a balanced initializer");
      take();
    }
    if (position() == start) fail("an initializer value");
    return text_since(start);
  }

  // ---- functions --------------------------------------------------------------
  Function function(std::vector<std::string> linkage, int line) {
    Function f;
    f.linkage = std::move(linkage);
    f.line = line;
    f.is_entry = take().text == ".entry";
    if (cur().is('(')) {
      if (f.is_entry) fail("a kernel name");
      f.return_params = param_list();
    }
    f.name = name("a function name");
    if (cur().is('(')) f.params = param_list();
    function_directives(f);
    if (accept(';')) {
      f.has_body = false;
    } else if (accept('{')) {
      f.has_body = true;
      body(f);
    } else {
      fail("'{' or ';' after the header of " + f.name);
    }
    build_blocks(f);
    return f;
  }

  std::vector<Param> param_list() {
    expect('(');
    std::vector<Param> params;
    if (accept(')')) return params;
    do params.push_back(param());
    while (accept(','));
    expect(')');
    return params;
  }

  Param param() {
    const std::size_t start = position();
    Param p;
    if (!cur().is_directive() || (cur().text != ".param" && cur().text != ".reg"))
      fail("'.param' or '.reg'");
    p.space = std::string(take().text);
    while (cur().is_directive()) {
      const std::string t(take().text);
      if (t == ".align") {
        (p.is_ptr ? p.ptr_align : p.align) = integer("an alignment");
      } else if (t == ".ptr") {
        p.is_ptr = true;
      } else if (p.is_ptr && is_pointer_space(t)) {
        p.ptr_space = t;
      } else {
        p.types.push_back(t);
      }
    }
    if (p.types.empty()) fail("a parameter type");
    p.name = name("a parameter name");
    p.array = array_dimensions();
    p.raw = text_since(start);
    return p;
  }

  void function_directives(Function& f) {
    while (cur().is_directive()) {
      FunctionDirective d;
      d.name = std::string(take().text);
      if (d.name == ".pragma") {
        d.args = pragma_strings();
        expect(';');
      } else if (cur().kind == Token::Kind::Number) {
        do d.args.push_back(std::to_string(integer("a number")));
        while (accept(','));
      }
      f.directives.push_back(std::move(d));
    }
  }

  std::vector<std::string> pragma_strings() {
    std::vector<std::string> out;
    do {
      if (cur().kind != Token::Kind::String) fail("a quoted pragma string");
      out.emplace_back(take().text);
    } while (accept(','));
    return out;
  }

  // ---- bodies -------------------------------------------------------------------
  void body(Function& f) {
    int depth = 0;
    while (true) {
      for (const Token* c : take_comments()) {
        Statement s;
        s.kind = Statement::Kind::Comment;
        s.line = c->line;
        s.comment = std::string(c->text);
        f.body.push_back(std::move(s));
      }
      const Token& t = cur();
      Statement s;
      s.line = t.line;
      if (t.kind == Token::Kind::End) fail("'}' closing the body of " + f.name);
      if (t.is('}')) {
        take();
        if (depth == 0) return;
        --depth;
        s.kind = Statement::Kind::ScopeClose;
      } else if (t.is('{')) {
        take();
        ++depth;
        s.kind = Statement::Kind::ScopeOpen;
      } else if (t.is_directive()) {
        body_directive(s);
      } else if (is_name(t) && peek(1).is(':')) {
        s.kind = Statement::Kind::Label;
        s.label = std::string(take().text);
        take();
      } else if (t.is('@') || t.kind == Token::Kind::Word) {
        s.kind = Statement::Kind::Instruction;
        s.instruction = instruction();
      } else {
        fail("a statement");
      }
      f.body.push_back(std::move(s));
    }
  }

  void body_directive(Statement& s) {
    const std::string_view d = cur().text;
    if (d == ".reg") {
      s.kind = Statement::Kind::RegDecl;
      s.decl = var_decl({});
    } else if (is_state_space(d)) {
      s.kind = Statement::Kind::VarDecl;
      s.decl = var_decl({});
    } else if (d == ".pragma") {
      take();
      s.kind = Statement::Kind::Pragma;
      s.pragma_args = pragma_strings();
      expect(';');
    } else {
      s.kind = Statement::Kind::Directive;
      s.directive = is_line_directive(d) ? line_directive() : semicolon_directive();
    }
  }

  bool header_marked_ = false;
};

}  // namespace

Module parse(std::string_view text, const std::string& filename) {
  return Parser(text, filename).module();
}

Module parse_file(const std::string& path) {
  std::string text, reason;
  if (!try_read_text_file(path, text, reason))
    throw ParseError(path, 0, 0, "a readable PTX file", reason);
  return parse(text, path);
}

}  // namespace gpucmp::ptx
