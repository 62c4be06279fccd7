// structio's C++ baseline: Glaze's throughput on the seven benchmark documents, measured the
// same way as structio's `roundtrip` bench (reused destination value and output buffers,
// best of N repetitions of loops of at least --seconds each).
//
//   bench generate DIR        write NAME.json, NAME.pretty.json, NAME.beve for the seven documents
//   bench run DIR [SECONDS] [REPS]
//                             time Glaze on the files in DIR; prints "doc<TAB>op<TAB>MB/s" lines
//
// Only Glaze's public API is used. Build instructions: README.md beside this file.
#include <glaze/glaze.hpp>

#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

struct test_struct {
   std::vector<std::string> testStrings{};
   std::vector<uint64_t> testUints{};
   std::vector<double> testDoubles{};
   std::vector<int64_t> testInts{};
   std::vector<bool> testBools{};
};

template <class T>
struct az {
   T a{}, b{}, c{}, d{}, e{}, f{}, g{}, h{}, i{}, j{}, k{}, l{}, m{}, n{}, o{}, p{}, q{}, r{}, s{}, t{}, u{},
      v{}, w{}, x{}, y{}, z{};
   template <class F>
   void each(F&& fn)
   {
      for (T* field : {&a, &b, &c, &d, &e, &f, &g, &h, &i, &j, &k, &l, &m, &n, &o, &p, &q, &r, &s, &t, &u, &v, &w,
                       &x, &y, &z})
         fn(*field);
   }
};

using mixed_doc = az<std::vector<test_struct>>;
template <class T>
using flat_doc = az<std::vector<T>>;

namespace gen
{
   std::mt19937_64 rng{20261129};

   std::string text()
   {
      static const std::vector<std::string> pieces = {"a", "b", "c", "x", "y", "z", "0", "7", " ", "-", "_",
                                                      "\"", "\\", "\n", "\t", "\r", "\b", "\f", "/", "\xC3\xA9",
                                                      "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xE6\x97\xA5"};
      std::uniform_int_distribution<size_t> len(32, 64), pick(0, pieces.size() - 1);
      std::string s;
      const size_t target = len(rng);
      while (s.size() < target) s += pieces[pick(rng)];
      return s;
   }
   uint64_t uint() { return rng() >> std::uniform_int_distribution<int>(0, 63)(rng); }
   int64_t sint() { return int64_t(uint()) * (rng() & 1 ? -1 : 1); }
   double dbl()
   {
      std::uniform_real_distribution<double> e(std::log(DBL_MIN), std::log(DBL_MAX));
      return std::exp(e(rng)) * (rng() & 1 ? -1.0 : 1.0);
   }
   double decimal()
   {
      static const double fr[] = {0.0, 0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875};
      double v = double(rng() % 1000) + fr[rng() % 8];
      return rng() % 4 == 0 ? -v : v;
   }
   bool boolean() { return rng() & 1; }

   template <class T, class F>
   flat_doc<T> flat(size_t per_field, F&& make)
   {
      flat_doc<T> d;
      d.each([&](std::vector<T>& v) {
         for (size_t i = 0; i < per_field; ++i) v.push_back(make());
      });
      return d;
   }

   mixed_doc mixed()
   {
      mixed_doc d;
      size_t field = 0;
      d.each([&](std::vector<test_struct>& v) {
         const size_t n = 4 + (field++ % 8 == 0 ? 1 : 0);
         for (size_t i = 0; i < n; ++i) {
            test_struct t;
            for (int k = 0; k < 13; ++k) {
               t.testStrings.push_back(text());
               t.testUints.push_back(uint());
               t.testDoubles.push_back(dbl());
               t.testInts.push_back(sint());
               t.testBools.push_back(boolean());
            }
            v.push_back(std::move(t));
         }
      });
      return d;
   }
}

static std::string slurp(const std::filesystem::path& p)
{
   std::ifstream f(p, std::ios::binary);
   return std::string(std::istreambuf_iterator<char>(f), {});
}

static void spill(const std::filesystem::path& p, const std::string& s)
{
   std::ofstream f(p, std::ios::binary);
   f.write(s.data(), std::streamsize(s.size()));
}

template <class T>
static int emit(const std::filesystem::path& dir, const char* name, const T& doc)
{
   std::string json, pretty, beve;
   if (glz::write_json(doc, json) || glz::write_beve(doc, beve)) return 1;
   glz::prettify_json(json, pretty);
   spill(dir / (std::string(name) + ".json"), json);
   spill(dir / (std::string(name) + ".pretty.json"), pretty);
   spill(dir / (std::string(name) + ".beve"), beve);
   return 0;
}

static double seconds_per_rep = 0.5;
static int reps = 5;

// Runs `op` in loops of at least `seconds_per_rep`, `reps` times; returns the best MB/s.
template <class F>
static double best_mbps(size_t bytes, F&& op)
{
   using clock = std::chrono::steady_clock;
   double best = 0;
   for (int r = 0; r < reps; ++r) {
      size_t iters = 0;
      const auto start = clock::now();
      double elapsed = 0;
      do {
         op();
         ++iters;
         elapsed = std::chrono::duration<double>(clock::now() - start).count();
      } while (elapsed < seconds_per_rep);
      best = std::max(best, double(bytes) * double(iters) / elapsed / 1e6);
   }
   return best;
}

template <class T>
static int time_doc(const std::filesystem::path& dir, const char* name)
{
   const std::string json = slurp(dir / (std::string(name) + ".json"));
   std::string pretty = slurp(dir / (std::string(name) + ".pretty.json"));
   const std::string beve = slurp(dir / (std::string(name) + ".beve"));
   if (json.empty() || beve.empty()) {
      std::fprintf(stderr, "missing files for %s in %s\n", name, dir.c_str());
      return 1;
   }
   T value{};
   std::string out;
   if (auto ec = glz::read_json(value, json)) {
      std::fprintf(stderr, "%s: read_json failed: %s\n", name, glz::format_error(ec, json).c_str());
      return 1;
   }
   bool ok = true;
   // GLAZE_BENCH_CASE=op times only that operation (for quick side-by-side checks).
   const char* only = std::getenv("GLAZE_BENCH_CASE");
   auto report = [&](const char* op, size_t bytes, auto&& f) {
      if (only && std::string_view(only) != op) return;
      std::printf("%s\t%s\t%.0f\n", name, op, best_mbps(bytes, f));
   };
   report("json_read", json.size(), [&] { ok &= !glz::read_json(value, json); });
   report("json_write", json.size(), [&] { ok &= !glz::write_json(value, out); });
   report("prettify", json.size(), [&] { glz::prettify_json(json, out); });
   report("minify", pretty.size(), [&] { glz::minify_json(pretty, out); });
   report("beve_read", beve.size(), [&] { ok &= !glz::read_beve(value, beve); });
   report("beve_write", beve.size(), [&] { ok &= !glz::write_beve(value, out); });
   std::fflush(stdout);
   return ok ? 0 : 1;
}

int main(int argc, char** argv)
{
   if (argc < 3) {
      std::fprintf(stderr, "usage: %s generate DIR | run DIR [SECONDS] [REPS] [DOC...]\n", argv[0]);
      return 2;
   }
   const std::string mode = argv[1];
   const std::filesystem::path dir = argv[2];
   if (mode == "generate") {
      std::filesystem::create_directories(dir);
      int rc = emit(dir, "mixed", gen::mixed());
      rc |= emit(dir, "strings", gen::flat<std::string>(96, gen::text));
      rc |= emit(dir, "uints", gen::flat<uint64_t>(60, gen::uint));
      rc |= emit(dir, "ints", gen::flat<int64_t>(60, gen::sint));
      rc |= emit(dir, "doubles", gen::flat<double>(110, gen::dbl));
      rc |= emit(dir, "exact_decimals", gen::flat<double>(170, gen::decimal));
      rc |= emit(dir, "bools", gen::flat<bool>(180, gen::boolean));
      return rc;
   }
   if (mode == "run") {
      if (argc > 3) seconds_per_rep = std::stod(argv[3]);
      if (argc > 4) reps = std::stoi(argv[4]);
      // Documents named after REPS are the only ones timed.
      auto wanted = [&](const char* name) {
         if (argc <= 5) return true;
         for (int i = 5; i < argc; ++i)
            if (std::string_view(argv[i]) == name) return true;
         return false;
      };
      int rc = 0;
      if (wanted("mixed")) rc |= time_doc<mixed_doc>(dir, "mixed");
      if (wanted("strings")) rc |= time_doc<flat_doc<std::string>>(dir, "strings");
      if (wanted("uints")) rc |= time_doc<flat_doc<uint64_t>>(dir, "uints");
      if (wanted("ints")) rc |= time_doc<flat_doc<int64_t>>(dir, "ints");
      if (wanted("doubles")) rc |= time_doc<flat_doc<double>>(dir, "doubles");
      if (wanted("exact_decimals")) rc |= time_doc<flat_doc<double>>(dir, "exact_decimals");
      if (wanted("bools")) rc |= time_doc<flat_doc<bool>>(dir, "bools");
      return rc;
   }
   std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
   return 2;
}
