# functions_as_lambdas.awk - an application file as the body of a C++
# function (bin/halide_run includes it into one): the C++ functions the
# program defines at file scope become lambdas there, line for line.
#   Expr avg(Expr a, Expr b) {        auto avg = [&](Expr a, Expr b) -> Expr {
#     return (a + b) / 2;       ->      return (a + b) / 2;
#   }                                 };
# A function's head is one line at column 0 (its type, its name, its
# parameters, the opening brace) and its closing brace a line "}" at
# column 0; other lines are copied as they are. A #line directive first
# keeps the file's own name and line numbers in the compiler's messages
# (awk -v src=FILE).
BEGIN { if (src != "") print "#line 1 \"" src "\"" }
/^[A-Za-z_][A-Za-z0-9_:]*[ &]+[A-Za-z_][A-Za-z0-9_]*\(.*\) *\{ *$/ && !fn {
	head = $0
	type = head
	sub(/[ &]+[A-Za-z_][A-Za-z0-9_]*\(.*$/, "", type)
	name = head
	sub(/^[A-Za-z_][A-Za-z0-9_:]*[ &]+/, "", name)
	params = name
	sub(/\(.*$/, "", name)
	sub(/^[A-Za-z_][A-Za-z0-9_]*\(/, "", params)
	sub(/\) *\{ *$/, "", params)
	print "auto " name " = [&](" params ") -> " type " {"
	fn = 1
	next
}
fn && /^}[ \t]*$/ {
	print "};"
	fn = 0
	next
}
{ print }
