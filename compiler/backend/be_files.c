/* be_files.c - the back end's files (backend.h): <app>.io.yaml (each IO
 * stream's tile, image and cycle schedule), .place, .route, .mapped.json,
 * .bs, .report.yaml and .svg, written together or not at all. */
#include <stdlib.h>
#include <string.h>

#include "be.h"

/* An image's extension (hl_region_ext): an input covers 0 to the end of its
 * region, the output its region. */
static const char *region_ext(const LRegion *r, int from_zero)
{
	Interval iv[4];
	for (int i = 0; i < r->dims && i < 4; i++)
		iv[i] = (Interval){ r->box_min[i], r->box_min[i] + r->box_extent[i] - 1 };
	return hl_region_ext(r->dims, iv, from_zero);
}

static void write_loops(const UbStmt *s, FILE *f)
{
	fputs("    loops:\n", f);
	for (int l = 0; l < s->nloops; l++)
		fprintf(f, "      - { min: %lld, extent: %lld, stride: %lld }\n", (long long)s->min[l],
			(long long)s->extent[l], (long long)s->stride[l]);
}

/* A coordinate map; with runs, what each host loop adds per iteration
 * (`shift`, level 0 innermost as `runs`). */
static void write_index(const UbProgram *u, const UbStmt *s, const UbIndex *x, int64_t sub, FILE *f)
{
	fputs("      - { coef: [", f);
	for (int l = 0; l < s->nloops; l++)
		fprintf(f, "%s%lld", l ? ", " : "", (long long)x->coef[l]);
	fprintf(f, "], c: %lld, div: %lld", (long long)(x->c - sub * x->div), (long long)x->div);
	if (u->nhost) {
		fputs(", shift: [", f);
		for (int k = u->nhost - 1; k >= 0; k--)
			fprintf(f, "%s%lld", k < u->nhost - 1 ? ", " : "", (long long)(x->host[k] / x->div));
		fputs("]", f);
	}
	fputs(" }\n", f);
}

static void write_stream(const Backend *B, int si, FILE *f)
{
	const UbStmt *s = &B->u->stmts.data[si];
	const LProgram *L = B->u->L;
	const NlCell *io = &B->nl.cells.data[B->nl.io_of_stmt[si]];
	int W = B->u->g->word;
	const LRegion *r = s->input ? &L->images[s->image] : &L->funcs[L->p->output];
	/* the statement's name: one stream per channel of an unrolled image is input_0, input_1, ... */
	const char *name = s->name;
	fprintf(f, "  - name: %s\n    dir: %s\n    port: io_%s_x%d_%d\n    width: %d\n", name,
		s->input ? "in" : "out", s->input ? "in" : "out", io->x, W, W);
	/* an input image, or a streamed Func's values (computed by the host: cgrac --run --streams) */
	if (s->input)
		fprintf(f, "    image: %s.%s.%s\n", B->base, L->p->images.data[s->image].name, region_ext(r, 1));
	else
		fprintf(f, "    image: golden.%s\n", region_ext(r, 0));
	/* the values' type, when it is not the word's unsigned integers */
	HType t = s->input ? L->p->images.data[s->image].type : L->p->funcs.data[L->p->output].type;
	if (t.is_signed || t.bits != W)
		fprintf(f, "    type: %s\n", ht_name(t));
	fputs("    dims: [", f);
	for (int j = 0; j < r->dims; j++)
		fprintf(f, "%s%lld", j ? ", " : "",
			(long long)(s->input ? r->box_min[j] + r->box_extent[j] : r->box_extent[j]));
	fputs("]\n", f);
	if (s->input && s->split_dim >= 0 && !s->split_stride) {
		fprintf(f, "    fixed: { dim: %d, value: %lld", s->split_dim, (long long)s->split_val);
		if (B->u->nhost) {
			fputs(", shift: [", f);
			for (int k = B->u->nhost - 1; k >= 0; k--)
				fprintf(f, "%s%lld", k < B->u->nhost - 1 ? ", " : "", (long long)s->split_shift[k]);
			fputs("]", f);
		}
		fputs(" }\n", f);
	}
	fprintf(f, "    start: %lld\n", (long long)(s->delay + (s->input ? 0 : s->latency)));
	write_loops(s, f);
	fputs("    index:\n", f);
	if (s->input) {
		const UbPort *wp = NULL;
		vec_foreach(&B->u->ports, pi) if (B->u->ports.data[pi].stmt == si && B->u->ports.data[pi].write) wp =
		    &B->u->ports.data[pi];
		for (int j = 0; wp && j < wp->ndims; j++) {
			UbIndex x = wp->index[j];
			if (j == s->split_dim && s->split_stride) {
				/* a block's channel: the image's coordinate is split_val + stride * block */
				for (int l = 0; l < UB_MAXD; l++)
					x.coef[l] *= s->split_stride;
				x.c = x.c * s->split_stride + s->split_val * x.div;
			}
			write_index(B->u, s, &x, 0, f);
		}
	} else {
		for (int j = 0; j < s->nout; j++)
			write_index(B->u, s, &s->out_index[j], r->box_min[j], f);
	}
}

static void write_io(const void *arg, FILE *f)
{
	const Backend *B = arg;
	fprintf(f, "# Written by cgrac (format: verif/README.md, \"Applications\").\napp: %s\ndesign: %s\n"
		   "bitstream: %s.bs\ncycles: %lld\n", B->base, B->g->design, B->base,
		(long long)B->last_cycle + 2);
	if (B->u->nhost) {
		/* the host's loops around the accelerator, level 0 innermost: a run per iteration */
		fputs("runs:\n", f);
		for (int k = B->u->nhost - 1; k >= 0; k--)
			fprintf(f, "  - { loop: %s, extent: %lld }\n", hl_sym_name(B->u->L->p, B->u->L->host[k]->sym),
				(long long)B->u->L->host[k]->extent);
	}
	fputs("streams:\n", f);
	vec_foreach(&B->u->stmts, s) if (B->u->stmts.data[s].input) write_stream(B, s, f);
	vec_foreach(&B->u->stmts, s) if (B->u->stmts.data[s].output) write_stream(B, s, f);
}

static void write_place(const void *arg, FILE *f)
{
	const Backend *B = arg;
	fprintf(f, "# placement of %s on %s (seed %llu): cell x y kind\n", B->base, B->g->design,
		(unsigned long long)B->o->seed);
	vec_foreach(&B->nl.cells, i) {
		const NlCell *c = &B->nl.cells.data[i];
		fprintf(f, "%-24s %3d %3d %s\n", c->name, c->x, c->y, c->kind == NL_PE ? "pe" : c->kind == NL_MEM ? "mem" : "io");
	}
}

static void write_route(const void *arg, FILE *f)
{
	const Backend *B = arg;
	fprintf(f, "# routes of %s on %s: per net its tree, its sinks with the registers on their paths (a packed one in the PE), one edge per line (from -> to)\n", B->base, B->g->design);
	vec_foreach(&B->nl.nets, i) {
		const NlNet *net = &B->nl.nets.data[i];
		fprintf(f, "net %s\n", net->name);
		vec_foreach(&net->sinks, k) fprintf(f, "  sink %s regs %d%s\n", B->g->nodes[B->rnets[i].sinks[k].node].name,
						     net->sinks.data[k].regs,
						     net->sinks.data[k].packed ? " + the PE's input register" : "");
		for (int e = 0; e < B->rr.routes[i].nedges; e++)
			fprintf(f, "  %s -> %s\n", B->g->nodes[B->rr.routes[i].edges[e].from].name,
				B->g->nodes[B->rr.routes[i].edges[e].to].name);
	}
}

static void write_mapped(const void *arg, FILE *f)
{
	cm_write_json(arg, f);
}

static void write_bits(const void *arg, FILE *f)
{
	bitstream_write(arg, f);
}

typedef struct Report {
	const Backend *B;
	const BeSeconds *s;
} Report;

void be_figures(const Backend *B, BeFigures *f)
{
	*f = (BeFigures){ B->nl.pes, B->nl.mems, B->regs_used + B->nl.packed, B->rr.tracks16, B->rr.tracks1,
			  B->crit > 0 ? 1000.0 / B->crit : 0.0, (long long)B->latency };
}

static void write_report(const void *arg, FILE *f)
{
	const Report *r = arg;
	const Backend *B = r->B;
	const BeOptions *o = B->o;
	fprintf(f, "# Written by cgrac: what %s uses of %s and how long each stage took.\n", B->base, B->g->design);
	fprintf(f, "app: %s\ndesign: %s\npes: %d\nmems: %d\nios: %d\nregisters: %d\npacked_registers: %d\n", B->base,
		B->g->design, B->nl.pes, B->nl.mems, B->nl.ios, B->regs_used + B->nl.packed, B->nl.packed);
	fprintf(f, "delay_pes: %d\npipelined: %s\n", B->nl.delays, B->cm->pipelined ? "true" : "false");
	fprintf(f, "tracks: { 16: %d, 1: %d }\n", B->rr.tracks16, B->rr.tracks1);
	fprintf(f, "critical_path_ns: %.3f\ncritical_path: \"%s\"\nclock_mhz: %.1f\n", B->crit, B->crit_path,
		B->crit > 0 ? 1000.0 / B->crit : 0.0);
	fprintf(f, "latency_cycles: %lld\n", (long long)B->latency);
	if (B->u->runs > 1)     /* the latency is one run's: the host runs the accelerator this often */
		fprintf(f, "runs: %lld\n", (long long)B->u->runs);
	fprintf(f, "route_iterations: %d\n", B->rr.iterations);
	fprintf(f, "hop_limit: %d\nextra_registers: %d\ntable_lookups: %d\n", o->hop_limit, cm_extra_registers(B->cm),
		B->cm->roms.len);
	fprintf(f, "seconds:\n  front_end: %.4f\n  buffers: %.4f\n  compute_mapping: %.4f\n  netlist: %.4f\n"
		   "  placement: %.4f\n  routing: %.4f\n  timing: %.4f\n  bitstream: %.4f\n",
		r->s->front_end, r->s->buffers, r->s->compute_mapping, r->s->netlist, r->s->placement, r->s->routing,
		B->t_timing, B->t_bits);
}

/* The placement and the routes on the array, as AHA Fig. 20. */
static void write_svg(const void *arg, FILE *f)
{
	const Backend *B = arg;
	const Collateral *c = B->c;
	const int S = 40;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" "
		   "font-size=\"7\">\n", c->cols * S + 2, c->rows * S + 2);
	char **label = xcalloc((size_t)(c->cols * c->rows) + 1, sizeof *label);
	vec_foreach(&B->nl.cells, i) {
		const NlCell *cl = &B->nl.cells.data[i];
		label[cl->y * c->cols + cl->x] = (char *)cl->name;
	}
	for (int y = 0; y < c->rows; y++)
		for (int x = 0; x < c->cols; x++) {
			char k = c->tiles[y][x];
			const char *used = label[y * c->cols + x];
			const char *fill = k == 'I' ? (used ? "#9ecae1" : "#eef5fb")
					   : k == 'M' ? (used ? "#a1d99b" : "#eef8ec")
						      : (used ? "#fdae6b" : "#fdf1e6");
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#999\"/>\n",
				x * S + 1, y * S + 1, S, S, fill);
			if (used)
				fprintf(f, "<text x=\"%d\" y=\"%d\">%.9s</text>\n", x * S + 3, y * S + 10, used);
		}
	free(label);
	for (int i = 0; i < B->rr.nnets; i++)
		for (int e = 0; e < B->rr.routes[i].nedges; e++) {
			const RNode *a = &B->g->nodes[B->rr.routes[i].edges[e].from];
			const RNode *b = &B->g->nodes[B->rr.routes[i].edges[e].to];
			if (a->x == b->x && a->y == b->y)
				continue;
			int off = 8 + 4 * (a->track < 0 ? 0 : a->track) + (a->width == 1 ? 2 : 0);
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1\"/>\n",
				a->x * S + off, a->y * S + off, b->x * S + off, b->y * S + off,
				a->width == 1 ? "#756bb1" : "#de2d26");
		}
	fputs("</svg>\n", f);
}

void be_print_mapped(const Backend *B, FILE *f)
{
	cm_print(B->cm, f);
	nl_print(&B->nl, f);
}

void be_print_place(const Backend *B, FILE *f)
{
	write_place(B, f);
}

void be_print_route(const Backend *B, FILE *f)
{
	write_route(B, f);
}

void be_print_bitstream(const Backend *B, FILE *f)
{
	bitstream_write(B->bs, f);
}

int be_write(const Backend *B, const char *out, const BeFile *extra, int nextra, const BeSeconds *s)
{
	if (!out)
		return 1;
	if (util_mkdir_p(out) != 0) {
		fprintf(stderr, "cgrac: cannot create %s\n", out);
		return 0;
	}
	Report rep = { B, s };
	const BeFile files[] = { { "mapped.json", write_mapped, B->cm }, { "place", write_place, B },
				 { "route", write_route, B },	       { "bs", write_bits, B->bs },
				 { "io.yaml", write_io, B },	       { "report.yaml", write_report, &rep },
				 { "svg", write_svg, B } };
	int nfiles = (int)(sizeof files / sizeof *files);
	OutSet *set = outset_new();
	for (int i = 0; i < nfiles + nextra; i++) {
		const BeFile *bf = i < nfiles ? &files[i] : &extra[i - nfiles];
		char *path = xasprintf("%s/%s.%s", out, B->base, bf->ext);
		FILE *f = outset_open(set, path);
		free(path);
		if (!f) {
			outset_abort(set);
			return 0;
		}
		bf->write(bf->arg, f);
	}
	return outset_commit(set) == 0;
}
