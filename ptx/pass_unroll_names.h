// Fresh names for pass_unroll's copies (passes.h): registers of the same class
// as an original, with the .reg declarations they need, and labels. Internal
// to ptx/.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

class RegisterPool {
 public:
  explicit RegisterPool(const Function& f);

  // The declared type of a register (".b32", ".pred"): from a function-level
  // .reg declaration with one type, or one this pool handed out; "" otherwise
  // (parameters, registers declared in a { } scope, vector declarations).
  std::string type_of(const std::string& reg) const;

  // A new register of the same type as `like` (type_of(like) must not be ""):
  // %r7 -> %ur0, %rd3 -> %urd0, %p2 -> %up0 (more u's where a name is taken).
  std::string fresh(const std::string& like);

  // Adds `.reg .b32 %ur<N>;` and the like after the function's .reg
  // declarations, for the registers handed out.
  void declare(Function& f) const;

 private:
  struct Class {
    std::string prefix;
    std::string type;
    int count = 0;
  };

  std::map<std::string, std::string> exact_;                         // name -> type
  std::map<std::string, std::pair<long long, std::string>> ranges_;  // prefix -> (count, type)
  std::set<std::string> prefixes_;                                   // prefixes in use
  std::map<std::pair<std::string, std::string>, int> class_of_;      // (prefix, type) -> classes_
  std::vector<Class> classes_;
  std::map<std::string, std::string> handed_out_;  // name -> type
};

class LabelNamer {
 public:
  explicit LabelNamer(const Function& f);
  // `base`_u`copy`, or with a further _N where that is taken.
  std::string fresh(const std::string& base, int copy);

 private:
  std::set<std::string> taken_;
};

}  // namespace gpucmp::ptx
