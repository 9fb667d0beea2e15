// Module -> PTX text in one canonical layout (nvcc's: one statement per line,
// tab-indented bodies, labels in column 0). print(parse(x)) assembles like x,
// and parse(print(m)) prints identically to m.
#pragma once
#include <string>

#include "ir.h"

namespace gpucmp::ptx {

std::string print(const Module& m);
std::string print(const Function& f);   // one function (header and body)
std::string print(const Statement& s);  // one body statement, without indentation
std::string print(const VarDecl& d);    // without the ';'

}  // namespace gpucmp::ptx
