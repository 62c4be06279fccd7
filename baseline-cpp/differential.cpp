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
//   differential typed NAME IN.beve IN.json OUT.bin
//       NAME: one of the record types below (scalars, arrays, maps, mixed, nested, complexes,
//       times). IN.beve and
//       IN.json: records written by structio (the JSON with null members written), each a u32
//       little-endian length and the bytes. Glaze reads every BEVE record into a fresh NAME and
//       writes it as BEVE, compact JSON and pretty JSON (both with escape_control_characters),
//       and reads every JSON record and writes it as compact and pretty JSON. OUT.bin: per
//       record, those five results in that order, each a status byte (0 written, 1 Glaze's read
//       error, then its text), a u32 length and the bytes.
//   differential reuse NAME IN.beve IN.json OUT.bin
//       Inputs as for `typed` (the JSON without null members). Per record: the BEVE record read
//       into a NAME holding the record before it, written as BEVE; the same with the JSON
//       records, written as JSON; two results in the typed mode's layout.
//   differential ndjson NAME IN.bin OUT.bin
//       IN.bin: one NDJSON document in the typed mode's framing (records of NAME written by
//       structio's to_ndjson); glz::read_ndjson reads it into a std::vector<NAME>, which is
//       written back as NDJSON (with escape_control_characters). OUT.bin: one result in the
//       typed mode's layout.
//   differential delimited NAME IN.bin OUT.bin
//       As `ndjson`, for BEVE: one document of records of NAME separated by the data delimiter
//       (structio's to_delimited), read by glz::read_beve_delimited and written back by
//       glz::write_beve_delimited.
//   differential convert IN.beve OUT.bin
//       IN.beve: BEVE documents in the typed mode's framing; OUT.bin: glz::beve_to_json (with
//       escape_control_characters) of each, as one result in the typed mode's layout.
//   differential timepoints IN.bin IN.json OUT.bin
//       IN.bin: raw little-endian int64 counts of nanoseconds since 1970-01-01T00:00:00Z;
//       IN.json: records written by structio (a Vec<SystemTime> each) in the typed mode's
//       framing. OUT.bin: Glaze's JSON of the counts as one
//       std::vector<std::chrono::sys_time<std::chrono::nanoseconds>>, then for each record what
//       Glaze reads from it written back as JSON, all in the typed mode's layout. (Glaze's BEVE
//       has no time points.)
//   differential golden DIR
//       Writes Glaze's BEVE and JSON of a fixed typed::times (DIR/times.beve, DIR/times.json)
//       and its JSON of a fixed vector of time points (DIR/time_points.json): the exchange
//       files of tests/data/glaze/, which tests/more_types.rs reads.
#include <glaze/glaze.hpp>

#include <array>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

struct escaped_controls : glz::opts
{
   bool escape_control_characters = true;
};

struct escaped_ndjson : glz::opts
{
   uint32_t format = glz::NDJSON;
   bool escape_control_characters = true;
};

struct escaped_pretty : glz::opts
{
   bool escape_control_characters = true;
   bool prettify = true;
};

// The record types of the `typed` mode; examples/glaze_differential/typed.rs mirrors them.
namespace typed
{
   struct point
   {
      double x{};
      double y{};
      // Glaze's concept checks compare the values of a map of variants holding a point.
      auto operator<=>(const point&) const = default;
   };
   struct empty
   {};
   struct inner
   {
      std::string name{};
      std::vector<int32_t> ids{};
      point at{};
   };
   struct scalars
   {
      int8_t i8{};
      int16_t i16{};
      int32_t i32{};
      int64_t i64{};
      uint8_t u8{};
      uint16_t u16{};
      uint32_t u32{};
      uint64_t u64{};
      float f32{};
      double f64{};
      bool b{};
      std::string s{};
      std::optional<int32_t> opt_i{};
      std::optional<std::string> opt_s{};
      std::optional<point> opt_p{};
      std::optional<std::vector<double>> opt_v{};
      inner nested{};
      empty nothing{};
   };
   struct arrays
   {
      std::vector<int8_t> vi8{};
      std::vector<int16_t> vi16{};
      std::vector<int32_t> vi32{};
      std::vector<int64_t> vi64{};
      std::vector<uint8_t> vu8{};
      std::vector<uint16_t> vu16{};
      std::vector<uint32_t> vu32{};
      std::vector<uint64_t> vu64{};
      std::vector<float> vf32{};
      std::vector<double> vf64{};
      std::vector<bool> vb{};
      std::vector<std::string> vs{};
      std::vector<point> vp{};
      std::vector<inner> vinner{};
      std::vector<std::vector<int32_t>> vvi{};
      std::vector<std::optional<int32_t>> vo{};
      std::array<int32_t, 3> ai{};
      std::array<double, 2> ad{};
      std::array<std::string, 2> astr{};
      std::array<bool, 3> ab{};
      std::array<point, 2> ap{};
      std::array<uint16_t, 4> au16{};
      std::vector<std::array<double, 2>> vad{};
      std::vector<std::array<float, 3>> vaf3{};
      std::vector<std::vector<double>> vvd{};
      std::vector<std::optional<std::string>> vos{};
      std::set<int32_t> set_i{};
      std::deque<double> deq{};
   };
   struct maps
   {
      std::map<std::string, int32_t> s_i32{};
      std::map<std::string, point> s_pt{};
      std::map<std::string, std::vector<double>> s_vd{};
      std::map<int32_t, std::string> i32_s{};
      std::map<uint64_t, double> u64_d{};
      std::map<int64_t, std::vector<std::string>> i64_vs{};
      std::map<int8_t, bool> i8_b{};
      std::map<uint16_t, point> u16_pt{};
      std::vector<std::map<std::string, int32_t>> v_maps{};
      std::map<std::string, std::optional<int32_t>> s_opt{};
   };
   enum class color : uint8_t { red, green, blue };
   enum class level : int16_t { low = -1, mid = 0, high = 1 };
   struct circle
   {
      double radius{};
   };
   struct rect
   {
      double width{};
      double height{};
   };
   using shape = std::variant<circle, rect>;
   using var_t = std::variant<std::monostate, double, std::string, bool, std::vector<int32_t>, point>;
   using var2_t = std::variant<int64_t, std::string, std::vector<std::string>, inner>;
   struct mixed
   {
      std::tuple<int32_t, std::string, double, bool> tup{};
      std::tuple<std::string, std::vector<int32_t>, point> tup2{};
      var_t var{};
      std::vector<var_t> vars{};
      var2_t var2{};
      shape sh{};
      std::vector<shape> shapes{};
      color c{};
      level l{};
      std::vector<color> cs{};
      std::map<std::string, color> by_name{};
      std::map<color, int32_t> by_color{};
   };
   struct nested
   {
      std::map<std::string, var_t> s_var{};
      std::vector<std::optional<point>> v_opt_p{};
      std::optional<std::vector<std::string>> opt_vs{};
      std::vector<std::vector<std::string>> vvs{};
      std::vector<std::tuple<int32_t, std::string>> v_tup{};
      std::map<std::string, std::vector<inner>> s_vinner{};
      std::vector<std::map<int32_t, std::vector<float>>> v_i_vf{};
      std::unique_ptr<inner> boxed{};
      std::map<uint8_t, shape> u8_shape{};
      std::vector<var2_t> v_var2{};
      std::array<std::vector<int16_t>, 2> a_vi16{};
      std::vector<std::array<std::string, 2>> v_astr{};
      std::vector<std::vector<std::vector<uint8_t>>> vvv{};
      std::vector<std::vector<bool>> vvb{};
      std::map<std::string, std::map<std::string, double>> s_s_d{};
      std::vector<empty> v_empty{};
      std::optional<inner> opt_inner{};
      std::map<int32_t, std::optional<std::string>> i_opt_s{};
   };
   // std::chrono durations, as structio writes std::time::Duration, and the std types that are
   // an integer or a string on the wire (NonZero*, Box<[T]>, Arc<str>, [T; N] past 32, IP and
   // socket addresses, paths): examples/glaze_differential/types.rs `Times`.
   struct times
   {
      std::chrono::nanoseconds d{};
      std::vector<std::chrono::nanoseconds> vd{};
      std::optional<std::chrono::nanoseconds> od{};
      std::map<std::string, std::chrono::nanoseconds> by_name{};
      uint32_t nz32{1};
      std::vector<uint64_t> vnz64{};
      std::vector<int8_t> vnz8{};
      std::map<uint16_t, int32_t> nz_keys{};
      std::array<uint8_t, 40> a40{};
      std::vector<std::string> boxed{};
      std::string shared{};
      std::vector<std::string> ips{};
      std::string sock{};
      std::string path{};
   };
   struct complexes
   {
      std::complex<double> cd{};
      std::complex<float> cf{};
      std::vector<std::complex<double>> vcd{};
      std::vector<std::complex<float>> vcf{};
   };
}

template <>
struct glz::meta<typed::color>
{
   using enum typed::color;
   static constexpr auto value = glz::enumerate(red, green, blue);
};
template <>
struct glz::meta<typed::level>
{
   using enum typed::level;
   static constexpr auto value = glz::enumerate(low, mid, high);
};
template <>
struct glz::meta<typed::shape>
{
   static constexpr std::string_view tag = "type";
   static constexpr auto ids = std::array{"circle", "rect"};
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

// Appends one result of the `typed` mode: status byte, u32 length, bytes.
static void put(std::string& out, char status, const std::string& bytes)
{
   out += status;
   const auto n = uint32_t(bytes.size());
   for (int i = 0; i < 4; ++i) out += char((n >> (8 * i)) & 0xFF);
   out += bytes;
}

// The records of a `typed` input file: each a u32 little-endian length and that many bytes.
static std::vector<std::string> records(const char* p)
{
   const std::string s = slurp(p);
   std::vector<std::string> v;
   size_t at = 0;
   while (at + 4 <= s.size()) {
      uint32_t n = 0;
      for (int i = 0; i < 4; ++i) n |= uint32_t(static_cast<unsigned char>(s[at + i])) << (8 * i);
      at += 4;
      v.emplace_back(s.substr(at, n));
      at += n;
   }
   return v;
}

template <class T>
static int typed_mode(const char* in_beve, const char* in_json, const char* out_path)
{
   const auto beve = records(in_beve);
   const auto json = records(in_json);
   if (beve.size() != json.size()) return 1;
   std::string out, tmp;
   for (size_t i = 0; i < beve.size(); ++i) {
      T v{};
      if (auto ec = glz::read_beve(v, beve[i])) {
         const std::string msg = glz::format_error(ec, beve[i]);
         for (int k = 0; k < 3; ++k) put(out, 1, msg);
      }
      else {
         tmp.clear();
         if (glz::write_beve(v, tmp)) return 1;
         put(out, 0, tmp);
         tmp.clear();
         if (glz::write<escaped_controls{}>(v, tmp)) return 1;
         put(out, 0, tmp);
         tmp.clear();
         if (glz::write<escaped_pretty{}>(v, tmp)) return 1;
         put(out, 0, tmp);
      }
      T w{};
      if (auto ec = glz::read_json(w, json[i])) {
         const std::string msg = glz::format_error(ec, json[i]);
         for (int k = 0; k < 2; ++k) put(out, 1, msg);
      }
      else {
         tmp.clear();
         if (glz::write<escaped_controls{}>(w, tmp)) return 1;
         put(out, 0, tmp);
         tmp.clear();
         if (glz::write<escaped_pretty{}>(w, tmp)) return 1;
         put(out, 0, tmp);
      }
   }
   spill(out_path, out);
   return 0;
}

// The `reuse` mode: each record read into a value that holds the record before it (as a loop
// reading records of one type into one value does), then written again.
template <class T>
static int reuse_mode(const char* in_beve, const char* in_json, const char* out_path)
{
   const auto beve = records(in_beve);
   const auto json = records(in_json);
   if (beve.size() != json.size()) return 1;
   std::string out, tmp;
   for (size_t i = 0; i < beve.size(); ++i) {
      T v{};
      auto ec = i > 0 ? glz::read_beve(v, beve[i - 1]) : glz::error_ctx{};
      if (!ec) ec = glz::read_beve(v, beve[i]);
      tmp.clear();
      if (ec) put(out, 1, glz::format_error(ec, beve[i]));
      else if (glz::write_beve(v, tmp)) return 1;
      else put(out, 0, tmp);
      T w{};
      ec = i > 0 ? glz::read_json(w, json[i - 1]) : glz::error_ctx{};
      if (!ec) ec = glz::read_json(w, json[i]);
      tmp.clear();
      if (ec) put(out, 1, glz::format_error(ec, json[i]));
      else if (glz::write<escaped_controls{}>(w, tmp)) return 1;
      else put(out, 0, tmp);
   }
   spill(out_path, out);
   return 0;
}

// The `ndjson` mode: all records as one NDJSON document, read into a vector and written back.
template <class T>
static int ndjson_mode(const char* in_path, const char* out_path)
{
   const auto docs = records(in_path);
   if (docs.size() != 1) return 1;
   std::vector<T> v;
   std::string out, tmp;
   if (auto ec = glz::read_ndjson(v, docs[0])) put(out, 1, glz::format_error(ec, docs[0]));
   else if (glz::write<escaped_ndjson{}>(v, tmp)) return 1;
   else put(out, 0, tmp);
   spill(out_path, out);
   return 0;
}

// The `delimited` mode: the BEVE counterpart of `ndjson`.
template <class T>
static int delimited_mode(const char* in_path, const char* out_path)
{
   const auto docs = records(in_path);
   if (docs.size() != 1) return 1;
   std::vector<T> v;
   std::string out, tmp;
   if (auto ec = glz::read_beve_delimited(v, docs[0])) put(out, 1, glz::format_error(ec, docs[0]));
   else if (glz::write_beve_delimited(v, tmp)) return 1;
   else put(out, 0, tmp);
   spill(out_path, out);
   return 0;
}

// Calls `f` with a value of the record type named `name`; -1 for an unknown name.
template <class F>
static int with_type(const std::string& name, F&& f)
{
   if (name == "scalars") return f(typed::scalars{});
   if (name == "arrays") return f(typed::arrays{});
   if (name == "maps") return f(typed::maps{});
   if (name == "mixed") return f(typed::mixed{});
   if (name == "complexes") return f(typed::complexes{});
   if (name == "times") return f(typed::times{});
   if (name == "nested") return f(typed::nested{});
   return -1;
}

using time_point_ns = std::chrono::sys_time<std::chrono::nanoseconds>;

// The `timepoints` mode (see the top of the file).
static int timepoints_mode(const char* in_counts, const char* in_json, const char* out_path)
{
   std::vector<time_point_ns> v;
   for (int64_t n : values<int64_t>(in_counts)) v.emplace_back(std::chrono::nanoseconds(n));
   std::string out, tmp;
   if (glz::write_json(v, tmp)) return 1;
   put(out, 0, tmp);
   for (const auto& doc : records(in_json)) {
      std::vector<time_point_ns> w;
      tmp.clear();
      if (auto ec = glz::read_json(w, doc)) put(out, 1, glz::format_error(ec, doc));
      else if (glz::write_json(w, tmp)) return 1;
      else put(out, 0, tmp);
   }
   spill(out_path, out);
   return 0;
}

// The `golden` mode: the fixed values of tests/data/glaze/ (mirrored in tests/more_types.rs).
static int golden_mode(const std::string& dir)
{
   using namespace std::chrono;
   typed::times t{};
   t.d = nanoseconds(1'500'000'000);
   t.vd = {nanoseconds(0), nanoseconds(1), nanoseconds(INT64_MAX), nanoseconds(86'400'000'000'000)};
   t.od = nanoseconds(7);
   t.by_name = {{"day", hours(24)}, {"ms", milliseconds(1)}};
   t.nz32 = 4'000'000'000u;
   t.vnz64 = {1, UINT64_MAX};
   t.vnz8 = {-128, 127};
   t.nz_keys = {{1, -1}, {65535, 2}};
   for (size_t i = 0; i < t.a40.size(); ++i) t.a40[i] = uint8_t(i * 7);
   t.boxed = {"a", "é"};
   t.shared = "shared text";
   t.ips = {"127.0.0.1", "::1", "2001:db8::8a2e:370:7334"};
   t.sock = "[::1]:8080";
   t.path = "/tmp/data.json";
   std::string out;
   if (glz::write_beve(t, out)) return 1;
   spill((dir + "/times.beve").c_str(), out);
   out.clear();
   if (glz::write_json(t, out)) return 1;
   spill((dir + "/times.json").c_str(), out);
   const std::vector<time_point_ns> tps = {
      time_point_ns{},
      time_point_ns{nanoseconds(1'700'000'000'123'456'789)},
      time_point_ns{nanoseconds(-1)},
      sys_days{year{2024} / February / 29} + hours(23) + minutes(59) + seconds(59),
      // The range of a sys_time<nanoseconds> (an int64 count): 1677-09-21 to 2262-04-11.
      time_point_ns{nanoseconds(INT64_MIN)},
      time_point_ns{nanoseconds(INT64_MAX)},
   };
   out.clear();
   if (glz::write_json(tps, out)) return 1;
   spill((dir + "/time_points.json").c_str(), out);
   return 0;
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
   if (mode == "convert" && argc == 4) {
      std::string tmp;
      for (const auto& doc : records(argv[2])) {
         tmp.clear();
         if (auto ec = glz::beve_to_json<escaped_controls{}>(doc, tmp)) {
            put(out, 1, glz::format_error(ec, doc));
         }
         else {
            put(out, 0, tmp);
         }
      }
      spill(argv[3], out);
      return 0;
   }
   if (mode == "timepoints" && argc == 5) return timepoints_mode(argv[2], argv[3], argv[4]);
   if (mode == "golden" && argc == 3) return golden_mode(argv[2]);
   if (mode == "delimited" && argc == 5) {
      const int rc = with_type(argv[2], [&](auto v) { return delimited_mode<decltype(v)>(argv[3], argv[4]); });
      if (rc >= 0) return rc;
   }
   if (mode == "ndjson" && argc == 5) {
      const int rc = with_type(argv[2], [&](auto v) { return ndjson_mode<decltype(v)>(argv[3], argv[4]); });
      if (rc >= 0) return rc;
   }
   if ((mode == "typed" || mode == "reuse") && argc == 6) {
      const int rc = with_type(argv[2], [&](auto v) {
         using T = decltype(v);
         return mode == "typed" ? typed_mode<T>(argv[3], argv[4], argv[5])
                                : reuse_mode<T>(argv[3], argv[4], argv[5]);
      });
      if (rc >= 0) return rc;
   }
   std::fprintf(stderr,
                "usage: %s floats F64.bin F32.bin OUT_F64.json OUT_F32.json\n"
                "       %s reformat DOCS.bin OUT_PRETTY.bin OUT_MINIFIED.bin\n"
                "       %s strings STRINGS.bin OUT.json OUT.beve\n"
                "       %s typed NAME IN.beve IN.json OUT.bin\n"
                "       %s convert IN.beve OUT.bin\n"
                "       %s reuse NAME IN.beve IN.json OUT.bin\n"
                "       %s ndjson NAME IN.bin OUT.bin\n"
                "       %s delimited NAME IN.bin OUT.bin\n"
                "       %s timepoints IN.bin IN.json OUT.bin\n"
                "       %s golden DIR\n",
                argv[0], argv[0], argv[0], argv[0], argv[0], argv[0], argv[0], argv[0], argv[0], argv[0]);
   return 2;
}
