/*
 * export_speedscope.c - speedscope's own JSON file format: shared frames
 * and one "sampled" profile whose samples are the caller chains of every
 * frame with self samples (root first), weighted by samples ("none") or,
 * when the rate is known and a sample counts in seconds, by seconds
 * (arc times of a capture without samples: "microseconds").
 */
#include "export.h"

#include <string.h>

static int write_speedscope(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_xmodel m;
	int rc = pc_xmodel_build(&m, p, o);
	if (rc)
		return rc;
	const char *dim = pc_profile_dimension(p);
	int secs = !m.arc_time && m.rate > 0 &&
		   (!dim || !*dim || strcmp(dim, "seconds") == 0);
	double scale = secs ? 1.0 / m.rate : 1.0;
	const char *name = pc_profile_program(p);
	if (!name || !*name)
		name = pc_profile_source_count(p) ? pc_profile_source_file(p, 0)
						   : "profile";

	pc_sink_puts(k, "{\"$schema\":\"https://www.speedscope.app/"
			"file-format-schema.json\",\n\"shared\":{\"frames\":[");
	for (size_t f = 0; f < m.nframes; f++) {
		const pc_xframe *fr = &m.frames[f];
		pc_sink_puts(k, f ? ",\n{\"name\":" : "\n{\"name\":");
		pc_sink_json_string(k, fr->name);
		const char *file, *ofile;
		unsigned line, oline;
		if (pc_xmodel_srcpos(&m, f, fr->address, &file, &line, &ofile,
				     &oline) && ofile) {
			pc_sink_puts(k, ",\"file\":");
			pc_sink_json_string(k, ofile);
			if (oline)
				pc_sink_printf(k, ",\"line\":%u", oline);
		} else if (fr->file) {
			pc_sink_puts(k, ",\"file\":");
			pc_sink_json_string(k, fr->file);
		}
		pc_sink_putc(k, '}');
	}
	pc_sink_puts(k, "]},\n\"profiles\":[{\"type\":\"sampled\",\"name\":");
	if (m.estimated) {
		/* the profile's name says how its stacks were made */
		pc_sink label;
		pc_sink_init(&label);
		pc_sink_printf(&label, "%s (call stacks estimated from call counts)",
			       name);
		pc_sink_json_string(k, label.failed ? name : label.buf);
		if (label.failed)
			k->failed = label.failed;
		pc_sink_dispose(&label);
	} else {
		pc_sink_json_string(k, name);
	}
	pc_sink_printf(k, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":",
		       m.arc_time ? "microseconds" : secs ? "seconds" : "none");
	double total = 0;
	for (size_t f = 0; f < m.nframes; f++)
		total += m.frames[f].self * scale;
	pc_sink_xnumber(k, total);
	pc_sink_puts(k, ",\n\"samples\":[");
	size_t n = 0;
	for (size_t c = 0; c < m.nchains; c++) {
		const pc_xchain *ch = &m.chains[c];
		pc_sink_puts(k, n++ ? ",\n[" : "\n[");
		for (size_t i = 0; i < ch->depth; i++)
			pc_sink_printf(k, i ? ",%zu" : "%zu",
				       m.pathpool[ch->first + i]);
		pc_sink_putc(k, ']');
	}
	pc_sink_puts(k, "],\n\"weights\":[");
	for (size_t c = 0; c < m.nchains; c++) {
		const pc_xchain *ch = &m.chains[c];
		if (c)
			pc_sink_putc(k, ',');
		pc_sink_xnumber(k, m.frames[ch->leaf].self * ch->fraction * scale);
	}
	pc_sink_puts(k, "]}],\n\"name\":");
	pc_sink_json_string(k, name);
	pc_sink_puts(k, ",\"activeProfileIndex\":0,\"exporter\":\"profcore " PC_VERSION_STRING);
	if (m.estimated)
		pc_sink_puts(k, "; " PC_XESTIMATE_NOTE);
	if (m.filters) {
		/* the shown form is valid UTF-8; escaped as a JSON string's
		 * inside */
		pc_sink fl;
		pc_sink_init(&fl);
		pc_sink_json_string(&fl, m.filters);
		pc_sink_puts(k, "; filters: ");
		if (!fl.failed && fl.len >= 2)
			pc_sink_write(k, fl.buf + 1, fl.len - 2);
		else
			k->failed = PC_ENOMEM;
		pc_sink_dispose(&fl);
	}
	pc_sink_puts(k, "\"}\n");
	pc_xmodel_free(&m);
	return k->failed;
}

static const pc_option_decl speedscope_keys[] = {
	PC_EXPORT_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};

const pc_exporter pc_export_speedscope = {
	.name = "speedscope",
	.options = speedscope_keys,
	.extension = ".speedscope.json",
	.description = "speedscope JSON (sampled profile with shared frames)",
	.write = write_speedscope,
};
