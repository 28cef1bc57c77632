/*
 * internal.h - private structures and helpers shared by libprofcore,
 * the built-in loaders and the report engines, one header per topic
 * (this one includes them all).  Not installed.
 */
#ifndef PC_INTERNAL_H
#define PC_INTERNAL_H

#include "pc_base.h"
#include "diag.h"
#include "stream.h"
#include "cgpaths.h"
#include "sink.h"
#include "report.h"
#include "samples.h"
#include "names.h"
#include "optview.h"
#include "symspec.h"

#endif
