// Glaze's side of the value-level differential test (examples/glaze_differential.rs): writes
// what Glaze writes for many values, so that structio's output can be compared byte for byte.
//
//   differential floats F64.bin F32.bin OUT_F64.json OUT_F32.json
//       F64.bin / F32.bin: raw little-endian doubles / floats; the outputs are Glaze's JSON of
//       them as std::vector<double> and std::vector<float>.
//   differential reformat DOCS.bin OUT_PRETTY.bin OUT_MINIFIED.bin
//       DOCS.bin: JSON documents, each followed by a 0xFF byte; the outputs are
//       glz::prettify_json and glz::minify_json of each, in the same layout.
//   differential strings STRINGS.bin OUT.json OUT.beve
//       STRINGS.bin: UTF-8 strings, each followed by a 0xFF byte; the outputs are Glaze's JSON
//       (with escape_control_characters, as structio writes control bytes) and BEVE of them as
//       std::vector<std::string>.
#include <glaze/glaze.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

struct escaped_controls : glz::opts
{
   bool escape_control_characters = true;
};

static std::string slurp(const char* p)
{
   std::ifstream f(p, std::ios::binary);
   return std::string(std::istreambuf_iterator<char>(f), {});
}

static void spill(const char* p, const std::string& s)
{
   std::ofstream f(p, std::ios::binary);
   f.write(s.data(), std::streamsize(s.size()));
}

template <class T>
static std::vector<T> values(const char* p)
{
   const std::string s = slurp(p);
   std::vector<T> v(s.size() / sizeof(T));
   std::memcpy(v.data(), s.data(), v.size() * sizeof(T));
   return v;
}

int main(int argc, char** argv)
{
   const std::string mode = argc > 1 ? argv[1] : "";
   std::string out;
   if (mode == "floats" && argc == 6) {
      if (glz::write_json(values<double>(argv[2]), out)) return 1;
      spill(argv[4], out);
      out.clear();
      if (glz::write_json(values<float>(argv[3]), out)) return 1;
      spill(argv[5], out);
      return 0;
   }
   if (mode == "reformat" && argc == 5) {
      std::string pretty, minified, doc, tmp;
      for (char c : slurp(argv[2])) {
         if (static_cast<unsigned char>(c) != 0xFF) {
            doc += c;
            continue;
         }
         tmp.clear();
         glz::prettify_json(doc, tmp);
         pretty += tmp;
         pretty += '\xFF';
         tmp.clear();
         glz::minify_json(doc, tmp);
         minified += tmp;
         minified += '\xFF';
         doc.clear();
      }
      spill(argv[3], pretty);
      spill(argv[4], minified);
      return 0;
   }
   if (mode == "strings" && argc == 5) {
      std::vector<std::string> v;
      std::string cur;
      for (char c : slurp(argv[2])) {
         if (static_cast<unsigned char>(c) == 0xFF) {
            v.push_back(cur);
            cur.clear();
         }
         else {
            cur += c;
         }
      }
      if (glz::write<escaped_controls{}>(v, out)) return 1;
      spill(argv[3], out);
      out.clear();
      if (glz::write_beve(v, out)) return 1;
      spill(argv[4], out);
      return 0;
   }
   std::fprintf(stderr,
                "usage: %s floats F64.bin F32.bin OUT_F64.json OUT_F32.json\n"
                "       %s reformat DOCS.bin OUT_PRETTY.bin OUT_MINIFIED.bin\n"
                "       %s strings STRINGS.bin OUT.json OUT.beve\n",
                argv[0], argv[0], argv[0]);
   return 2;
}
