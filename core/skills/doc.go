// Package skills discovers skills: the **/SKILL.md files of an fs.FS, each
// with YAML frontmatter naming it, which the "skill" tool
// (tool.SkillSet.Tool) hands to the model on request.
//
// A program links it by importing it for its side effect:
//
//	import _ "github.com/toolnexus/wasm/core/skills"
//
// Its init registers Load with core/tool's registry, and core's
// Options.SkillsFS and LoadSkillsFS then use it (so does toolnexus, whose
// port-shaped skill sources read SKILL.md files with it). Without the
// import, asking core for skills is an error that names it.
//
// The frontmatter is read by one YAML subset reader on every runtime (a
// mapping of plain, quoted or block scalars; nested values kept opaque): a
// full YAML library would cost about 245 kB of gzip'd wasm. Frontmatter
// outside the subset skips the skill and lists it in SkillSet.Problems.
package skills
