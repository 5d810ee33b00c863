// Ground truth for the benchmark: declarations and resolved references of a Java source tree,
// computed by the JDK's own compiler (Compiler Tree API + javac's attributed trees).
//
//   java --add-exports jdk.compiler/com.sun.tools.javac.{api,code,tree,util}=ALL-UNNAMED \
//        -cp <classes> RefOracle <sourceRoot> <out.json>
//
// Every .java file under sourceRoot is parsed and attributed in one javac task (sourcepath =
// sourceRoot, no class path, -proc:none). Errors caused by missing third-party dependencies are
// tolerated: attribution still runs (-XDshould-stop.ifError=FLOW) and only the error count is
// reported. See bench/oracle/oracle.mjs for the JSON format.
//
// Conventions (documented in oracle.mjs as well):
//  - lines and columns are 0-based, columns and offsets count UTF-16 chars of the file text;
//  - a declaration's position is its NAME identifier, a reference's position is the name at the site;
//    every position is checked against the source text (the name must be there, as a whole
//    identifier) and anything that fails the check (compiler-generated trees) is dropped;
//  - anonymous and local classes are transparent: they and their members are not declarations, and
//    references inside them are attributed to the enclosing reported declaration;
//  - a reference is emitted only when its target is one of the reported declarations (with two
//    mappings: an implicit constructor maps to its class, an implicit record accessor to the record
//    component).
import com.sun.source.tree.*;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreeScanner;
import com.sun.tools.javac.api.BasicJavacTask;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Kinds;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.code.Symbol.ClassSymbol;
import com.sun.tools.javac.code.Symbol.MethodSymbol;
import com.sun.tools.javac.code.Symbol.VarSymbol;
import com.sun.tools.javac.code.Type;
import com.sun.tools.javac.code.Types;
import com.sun.tools.javac.tree.EndPosTable;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.JCTree.*;
import com.sun.tools.javac.tree.TreeInfo;
import com.sun.tools.javac.util.Context;

import javax.lang.model.element.ElementKind;
import javax.lang.model.element.NestingKind;
import javax.lang.model.type.TypeKind;
import javax.tools.*;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class RefOracle {

    // ---------------------------------------------------------------- output records

    static final class Decl {
        String kind, name, owner, qualified, file;
        int line, col, offset;
        List<String> modifiers;
        int[] body; // startLine, startCol, endLine, endCol, startOffset, endOffset (end exclusive)
    }

    static final class Ref {
        String kind, name, file, from;
        int line, col, offset;
        Symbol sym;        // resolved symbol (mapped to a target at the end)
        Symbol fallback;   // class to target when sym is an implicit constructor / not reported
        Symbol memberOf;   // static import of a member name: the type it is imported from
        String target;
    }

    /** A package name written in the source (package/import declarations, qualified names). */
    static final class Pkg {
        String name, file;
        int line, col, endLine, endCol, offset;
    }

    // ---------------------------------------------------------------- state

    static final boolean DEBUG = System.getenv("NEEDLE_ORACLE_DEBUG") != null;
    final Path root;
    Types types;
    final List<Decl> decls = new ArrayList<>();
    final List<Ref> refs = new ArrayList<>();
    final List<Ref> importRefs = new ArrayList<>();
    final List<Pkg> packages = new ArrayList<>();
    final Set<String> sourcePackages = new HashSet<>();
    final Map<Symbol, String> qualifiedOf = new HashMap<>();
    final Set<String> recordComponents = new HashSet<>();
    int errors = 0;
    final Map<String, Integer> errorCodes = new TreeMap<>();
    final List<String> errorSamples = new ArrayList<>();
    int droppedDecls = 0, droppedRefs = 0;

    RefOracle(Path root) { this.root = root; }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: RefOracle <sourceRoot> <out.json>");
            System.exit(2);
        }
        long t0 = System.nanoTime();
        RefOracle o = new RefOracle(Paths.get(args[0]).toAbsolutePath().normalize());
        List<String> files = o.run();
        o.write(Paths.get(args[1]), files);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.err.printf("RefOracle: %d files, %d declarations, %d references, %d errors, %d ms%n",
                files.size(), o.decls.size(), o.refs.size(), o.errors, ms);
        if (o.droppedDecls + o.droppedRefs > 0)
            System.err.printf("RefOracle: dropped %d declarations and %d references whose name is not at the computed position%n",
                    o.droppedDecls, o.droppedRefs);
        if (o.errors > 0) {
            System.err.println("RefOracle: errors by code: " + o.errorCodes);
            for (String s : o.errorSamples) System.err.println("  " + s);
        }
    }

    List<String> run() throws IOException {
        List<Path> paths;
        try (Stream<Path> s = Files.walk(root)) {
            paths = s.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                    .sorted(Comparator.comparing(this::rel)).collect(Collectors.toList());
        }
        JavaCompiler jc = ToolProvider.getSystemJavaCompiler();
        DiagnosticListener<JavaFileObject> listener = d -> {
            if (d.getKind() != Diagnostic.Kind.ERROR) return;
            errors++;
            errorCodes.merge(d.getCode(), 1, Integer::sum);
            if (errorSamples.size() < (DEBUG ? 100000 : 10)) {
                String src = d.getSource() == null ? "?" : rel(Paths.get(d.getSource().toUri()));
                errorSamples.add(src + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT).split("\n")[0]);
            }
        };
        StandardJavaFileManager fm = jc.getStandardFileManager(listener, Locale.ROOT, StandardCharsets.UTF_8);
        List<File> files = paths.stream().map(Path::toFile).collect(Collectors.toList());
        List<String> opts = new ArrayList<>(List.of(
                "-proc:none", "-implicit:none", "-encoding", "UTF-8", "-nowarn", "-Xlint:none",
                "-Xmaxerrs", "1000000", "-Xmaxwarns", "0",
                "-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW",
                "-sourcepath", root.toString(), "-classpath", root.toString()));
        if (Files.exists(root.resolve("java/lang/Object.java"))) {
            // The JDK's own java.base: compile it as a patch of the system java.base.
            opts.addAll(List.of("--patch-module", "java.base=" + root));
            files.removeIf(f -> f.getName().equals("module-info.java"));
        }
        JavacTask task = (JavacTask) jc.getTask(null, fm, listener, opts, null, fm.getJavaFileObjectsFromFiles(files));
        Context ctx = ((BasicJavacTask) task).getContext();
        types = Types.instance(ctx);
        List<CompilationUnitTree> units = new ArrayList<>();
        for (CompilationUnitTree cu : task.parse()) units.add(cu);
        task.analyze();
        for (CompilationUnitTree cu : units) {
            JCCompilationUnit jcu = (JCCompilationUnit) cu;
            if (jcu.packge != null) sourcePackages.add(jcu.packge.fullname.toString());
        }
        List<String> rels = new ArrayList<>();
        for (CompilationUnitTree cu : units) {
            Unit u = new Unit((JCCompilationUnit) cu);
            rels.add(u.file);
            u.scan(cu, null);
        }
        resolveTargets();
        Collections.sort(rels);
        return rels;
    }

    String rel(Path p) {
        return root.relativize(p.toAbsolutePath().normalize()).toString().replace(File.separatorChar, '/');
    }

    // ---------------------------------------------------------------- symbols and names

    /** Named types whose whole nesting chain is top-level or member types. */
    boolean reportableType(Symbol s) {
        if (!(s instanceof ClassSymbol)) return false;
        ClassSymbol c = (ClassSymbol) s;
        NestingKind nk = c.getNestingKind();
        if (nk == NestingKind.TOP_LEVEL) return true;
        if (nk == NestingKind.MEMBER) return reportableType(c.owner);
        return false;
    }

    String typeKind(ClassSymbol c) {
        switch (c.getKind()) {
            case INTERFACE: return "interface";
            case ENUM: return "enum";
            case RECORD: return "record";
            case ANNOTATION_TYPE: return "annotation";
            default: return "class";
        }
    }

    /** Erased simple name of a parameter type: List, int[], T -> its bound, varargs -> String[]. */
    String simpleErased(Type t) {
        Type e = types.erasure(t);
        if (e.getKind() == TypeKind.ARRAY) return simpleErased(((Type.ArrayType) e).elemtype) + "[]";
        if (e.isPrimitiveOrVoid()) return e.toString();
        if (e.tsym != null) {
            String n = e.tsym.getSimpleName().toString();
            if (!n.isEmpty()) return n;
        }
        String s = e.toString();
        int lt = s.indexOf('<');
        if (lt >= 0) s = s.substring(0, lt);
        return s.substring(s.lastIndexOf('.') + 1);
    }

    String methodQualified(MethodSymbol m, String ownerQ) {
        String name = m.isConstructor() ? m.owner.getSimpleName().toString() : m.getSimpleName().toString();
        StringBuilder sb = new StringBuilder(ownerQ).append('#').append(name).append('(');
        boolean first = true;
        for (VarSymbol p : m.params()) {
            if (!first) sb.append(',');
            first = false;
            sb.append(simpleErased(p.type));
        }
        return sb.append(')').toString();
    }

    static boolean generated(MethodSymbol m) {
        long f = m.flags();
        return (f & Flags.GENERATEDCONSTR) != 0 || (f & Flags.GENERATED_MEMBER) != 0 || (f & Flags.ANONCONSTR) != 0;
    }

    /** A package that holds compiled sources, or an enclosing package of one. */
    boolean sourcePackageOrPrefix(String name) {
        for (String p : sourcePackages) if (p.equals(name) || p.startsWith(name + ".")) return true;
        return false;
    }

    void resolveTargets() {
        resolveTargets(refs);
        resolveTargets(importRefs);
    }

    void resolveTargets(List<Ref> list) {
        Iterator<Ref> it = list.iterator();
        while (it.hasNext()) {
            Ref r = it.next();
            if (r.memberOf != null) {
                String ownerQ = qualifiedOf.get(r.memberOf);
                if (ownerQ == null) it.remove(); else r.target = ownerQ + "#" + r.name;
                continue;
            }
            String t = r.sym == null ? null : qualifiedOf.get(r.sym);
            if (t == null && r.sym instanceof MethodSymbol) {
                MethodSymbol m = (MethodSymbol) r.sym;
                String ownerQ = qualifiedOf.get(m.owner);
                if (ownerQ != null) {
                    if (m.isConstructor()) t = ownerQ; // implicit (default / canonical) constructor
                    else if (m.params().isEmpty() && recordComponents.contains(ownerQ + "#" + m.getSimpleName()))
                        t = ownerQ + "#" + m.getSimpleName(); // implicit record accessor
                }
            }
            if (t == null && r.fallback != null) t = qualifiedOf.get(r.fallback);
            if (t == null) { it.remove(); continue; }
            r.target = t;
        }
    }

    // ---------------------------------------------------------------- one compilation unit

    final class Unit extends TreeScanner<Void, Void> {
        final JCCompilationUnit cu;
        final String file;
        final String text;
        final EndPosTable endPos;
        final int[] lineStarts;
        final Deque<String> from = new ArrayDeque<>();

        Unit(JCCompilationUnit cu) throws IOException {
            this.cu = cu;
            this.file = rel(Paths.get(cu.getSourceFile().toUri()));
            this.text = cu.getSourceFile().getCharContent(true).toString();
            this.endPos = cu.endPositions;
            List<Integer> starts = new ArrayList<>();
            starts.add(0);
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '\r') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
                    starts.add(i + 1);
                } else if (c == '\n') starts.add(i + 1);
            }
            lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
        }

        int line(int off) {
            int lo = 0, hi = lineStarts.length - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (lineStarts[mid] <= off) lo = mid; else hi = mid - 1;
            }
            return lo;
        }

        int end(JCTree t) { return t == null ? -1 : TreeInfo.getEndPos(t, endPos); }

        int start(JCTree t) { return t == null ? -1 : TreeInfo.getStartPos(t); }

        // ---- lexical helpers

        boolean nameAt(int pos, String name) {
            if (pos < 0 || pos + name.length() > text.length()) return false;
            if (!text.startsWith(name, pos)) return false;
            if (pos > 0 && Character.isJavaIdentifierPart(text.charAt(pos - 1))) return false;
            int e = pos + name.length();
            return e >= text.length() || !Character.isJavaIdentifierPart(text.charAt(e));
        }

        /**
         * Offset of the first identifier token equal to name at or after from (skipping comments
         * and literals); with afterKeyword, only an identifier right after a type-declaration keyword.
         */
        int scanFor(int from, String name, boolean afterKeyword) {
            if (from < 0) return -1;
            int i = from, n = text.length();
            boolean prevKeyword = false;
            while (i < n) {
                char c = text.charAt(i);
                if (Character.isWhitespace(c)) { i++; continue; }
                if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                    while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') i++;
                    continue;
                }
                if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                    int e = text.indexOf("*/", i + 2);
                    i = e < 0 ? n : e + 2;
                    continue;
                }
                if (c == '"' || c == '\'') {
                    if (c == '"' && text.startsWith("\"\"\"", i)) {
                        int e = text.indexOf("\"\"\"", i + 3);
                        i = e < 0 ? n : e + 3;
                    } else {
                        i++;
                        while (i < n && text.charAt(i) != c) { if (text.charAt(i) == '\\') i++; i++; }
                        i++;
                    }
                    prevKeyword = false;
                    continue;
                }
                if (Character.isJavaIdentifierStart(c)) {
                    int s = i;
                    while (i < n && Character.isJavaIdentifierPart(text.charAt(i))) i++;
                    String tok = text.substring(s, i);
                    if (tok.equals(name) && (!afterKeyword || prevKeyword)) return s;
                    prevKeyword = tok.equals("class") || tok.equals("interface") || tok.equals("enum") || tok.equals("record");
                    continue;
                }
                prevKeyword = false;
                i++;
            }
            return -1;
        }

        /** Position of the selected name in `expr . name`, `expr :: name`. */
        int selectNamePos(JCTree whole, JCTree qualifier, String name) {
            int e = end(whole);
            if (e > 0 && nameAt(e - name.length(), name)) return e - name.length();
            return scanFor(end(qualifier), name, false);
        }

        // ---- emitting

        void decl(String kind, Symbol sym, String name, String owner, String qualified, int pos, JCBlock body) {
            if (!nameAt(pos, name)) { droppedDecls++; return; }
            Decl d = new Decl();
            d.kind = kind; d.name = name; d.owner = owner; d.qualified = qualified; d.file = file;
            d.offset = pos; d.line = line(pos); d.col = pos - lineStarts[d.line];
            if (body != null) {
                int s = start(body), e = end(body);
                if (s >= 0 && e > s) {
                    int sl = line(s), el = line(e);
                    d.body = new int[] { sl, s - lineStarts[sl], el, e - lineStarts[el], s, e };
                }
            }
            d.modifiers = sym.getModifiers().stream().sorted().map(Object::toString).collect(Collectors.toList());
            decls.add(d);
            qualifiedOf.put(sym, qualified);
            if (kind.equals("recordComponent")) recordComponents.add(qualified);
        }

        void ref(String kind, String name, int pos, Symbol sym, Symbol fallback) {
            if (from.isEmpty() || from.peek() == null) return;
            if (sym == null && fallback == null) return;
            if (!nameAt(pos, name)) {
                if (pos >= 0) {
                    droppedRefs++;
                    if (DEBUG) System.err.println("drop " + kind + " " + name + " at " + file + ":" + (line(pos) + 1) + " '"
                            + text.substring(pos, Math.min(text.length(), pos + 20)).replace('\n', ' ') + "'");
                }
                return;
            }
            Ref r = new Ref();
            r.kind = kind; r.name = name; r.file = file; r.from = from.peek(); r.sym = sym; r.fallback = fallback;
            r.offset = pos; r.line = line(pos); r.col = pos - lineStarts[r.line];
            (inImport ? importRefs : refs).add(r);
        }

        /** A name resolving to a type, field or enum constant: `type` or `field` reference. */
        void simpleRef(Symbol sym, String name, int pos) {
            if (sym == null) return;
            if (sym instanceof Symbol.PackageSymbol) return;
            if (sym.kind == Kinds.Kind.TYP && sym instanceof ClassSymbol) ref("type", name, pos, sym, null);
            else if (sym.kind == Kinds.Kind.VAR && sym.owner instanceof ClassSymbol) ref("field", name, pos, sym, null);
        }

        // ---- scanning

        boolean inImport = false;

        /** A package name expression (outermost select resolving to a package): recorded, not descended. */
        boolean packageName(JCExpression t, Symbol sym) {
            if (!(sym instanceof Symbol.PackageSymbol)) return false;
            String name = ((Symbol.PackageSymbol) sym).fullname.toString();
            if (sourcePackageOrPrefix(name)) pkg(t, name);
            return true;
        }

        void pkg(JCExpression t, String name) {
            int s = start(t), e = end(t);
            if (s < 0 || e < s || !nameAt(s, name.substring(0, name.indexOf('.') < 0 ? name.length() : name.indexOf('.')))) return;
            Pkg k = new Pkg();
            k.name = name; k.file = file; k.offset = s;
            k.line = line(s); k.col = s - lineStarts[k.line];
            k.endLine = line(e); k.endCol = e - lineStarts[k.endLine];
            packages.add(k);
        }

        @Override public Void visitCompilationUnit(CompilationUnitTree node, Void p) {
            // package and import declarations yield no `references` (only `packages` and `imports`);
            // module declarations are not scanned
            if (cu.getPackageName() != null) pkg((JCExpression) cu.getPackageName(), TreeInfo.fullName((JCExpression) cu.getPackageName()).toString());
            inImport = true;
            from.push("");
            for (JCImport imp : cu.getImports()) {
                JCTree q = imp.qualid;
                if (imp.staticImport && q instanceof JCFieldAccess) {
                    JCFieldAccess fa = (JCFieldAccess) q;
                    String name = fa.name.toString();
                    Symbol owner = TreeInfo.symbol(fa.selected);
                    if (!name.equals("*") && owner instanceof ClassSymbol) {
                        int pos = selectNamePos(fa, fa.selected, name);
                        if (nameAt(pos, name)) {
                            Ref r = new Ref();
                            r.kind = "member"; r.name = name; r.file = file; r.from = ""; r.memberOf = owner;
                            r.offset = pos; r.line = line(pos); r.col = pos - lineStarts[r.line];
                            importRefs.add(r);
                        }
                    }
                    scan(fa.selected, p);
                } else {
                    scan(q, p);
                }
            }
            from.pop();
            inImport = false;
            for (JCTree def : cu.defs) if (def instanceof JCClassDecl) scan(def, p);
            return null;
        }

        @Override public Void visitClass(ClassTree node, Void p) {
            JCClassDecl cd = (JCClassDecl) node;
            ClassSymbol sym = cd.sym;
            if (sym == null || !reportableType(sym)) return super.visitClass(node, p); // transparent
            String q = sym.getQualifiedName().toString();
            String owner = sym.getNestingKind() == NestingKind.MEMBER ? qualifiedOf.getOrDefault(sym.owner, "") : "";
            String name = cd.name.toString();
            int pos = nameAt(cd.pos, name) ? cd.pos : scanFor(cd.mods.pos >= 0 && end(cd.mods) > 0 ? end(cd.mods) : start(cd), name, true);
            decl(typeKind(sym), sym, name, owner, q, pos, null);
            from.push(q);
            super.visitClass(node, p);
            from.pop();
            return null;
        }

        @Override public Void visitMethod(MethodTree node, Void p) {
            JCMethodDecl md = (JCMethodDecl) node;
            MethodSymbol sym = md.sym;
            if (sym != null && generated(sym)) return null;
            if (sym == null || !reportableType(sym.owner)) return super.visitMethod(node, p);
            String ownerQ = qualifiedOf.get(sym.owner);
            if (ownerQ == null) return super.visitMethod(node, p);
            String name = sym.isConstructor() ? sym.owner.getSimpleName().toString() : md.name.toString();
            int pos = md.pos;
            if (!nameAt(pos, name)) {
                int lower = Math.max(start(md), end(md.mods));
                if (md.typarams.nonEmpty()) lower = Math.max(lower, end(md.typarams.last()));
                if (md.restype != null) lower = Math.max(lower, end(md.restype));
                pos = scanFor(lower, name, false);
            }
            String q = methodQualified(sym, ownerQ);
            decl(sym.isConstructor() ? "constructor" : "method", sym, name, ownerQ, q, pos, md.body);
            from.push(q);
            super.visitMethod(node, p);
            from.pop();
            return null;
        }

        @Override public Void visitVariable(VariableTree node, Void p) {
            JCVariableDecl vd = (JCVariableDecl) node;
            VarSymbol sym = vd.sym;
            if (sym == null || !(sym.owner instanceof ClassSymbol) || !reportableType(sym.owner)) {
                scanVariable(vd, p);
                return null;
            }
            String ownerQ = qualifiedOf.get(sym.owner);
            if (ownerQ == null) { scanVariable(vd, p); return null; }
            ClassSymbol owner = (ClassSymbol) sym.owner;
            String name = vd.name.toString();
            String kind = sym.getKind() == ElementKind.ENUM_CONSTANT ? "enumConstant"
                    : owner.getKind() == ElementKind.RECORD && !sym.isStatic() ? "recordComponent" : "field";
            int pos = vd.pos;
            if (!nameAt(pos, name)) {
                int lower = Math.max(start(vd), end(vd.mods));
                if (vd.vartype != null) lower = Math.max(lower, end(vd.vartype));
                pos = scanFor(lower, name, false);
            }
            String q = ownerQ + "#" + name;
            decl(kind, sym, name, ownerQ, q, pos, null);
            from.push(q);
            if (kind.equals("enumConstant")) {
                // the enum constant's type and `new` are implicit: scan only what is written
                scan(vd.mods, p);
                if (vd.init instanceof JCNewClass) {
                    JCNewClass nc = (JCNewClass) vd.init;
                    scan(nc.args, p);
                    if (nc.def != null) scan(nc.def.defs, p);
                }
            } else {
                scanVariable(vd, p);
            }
            from.pop();
            return null;
        }

        /** `int a, b;` shares one modifiers and one type tree between declarators: scan them once. */
        final Set<JCTree> sharedSeen = Collections.newSetFromMap(new IdentityHashMap<>());

        void scanVariable(JCVariableDecl vd, Void p) {
            if (sharedSeen.add(vd.mods)) scan(vd.mods, p);
            if (vd.vartype != null && sharedSeen.add(vd.vartype)) scan(vd.vartype, p);
            scan(vd.nameexpr, p);
            scan(vd.init, p);
        }

        @Override public Void visitIdentifier(IdentifierTree node, Void p) {
            JCIdent id = (JCIdent) node;
            if (packageName(id, id.sym)) return null;
            simpleRef(id.sym, id.name.toString(), id.pos);
            return null;
        }

        @Override public Void visitMemberSelect(MemberSelectTree node, Void p) {
            JCFieldAccess fa = (JCFieldAccess) node;
            if (packageName(fa, fa.sym)) return null;
            String name = fa.name.toString();
            simpleRef(fa.sym, name, selectNamePos(fa, fa.selected, name));
            scan(fa.selected, p);
            return null;
        }

        @Override public Void visitMethodInvocation(MethodInvocationTree node, Void p) {
            JCMethodInvocation mi = (JCMethodInvocation) node;
            JCExpression meth = TreeInfo.skipParens(mi.meth);
            scan(mi.typeargs, p);
            if (meth instanceof JCIdent) {
                JCIdent id = (JCIdent) meth;
                String name = id.name.toString();
                boolean ctor = name.equals("this") || name.equals("super");
                // javac inserts `super();` into constructors without an explicit constructor call
                if (!(ctor && end(id) < 0)) ref(ctor ? "ctorCall" : "call", name, id.pos, id.sym, null);
            } else if (meth instanceof JCFieldAccess) {
                JCFieldAccess fa = (JCFieldAccess) meth;
                String name = fa.name.toString();
                boolean ctor = name.equals("this") || name.equals("super");
                ref(ctor ? "ctorCall" : "call", name, selectNamePos(fa, fa.selected, name), fa.sym, null);
                scan(fa.selected, p);
            } else {
                scan(mi.meth, p);
            }
            scan(mi.args, p);
            return null;
        }

        @Override public Void visitNewClass(NewClassTree node, Void p) {
            JCNewClass nc = (JCNewClass) node;
            scan(nc.encl, p);
            scan(nc.typeargs, p);
            JCExpression clazz = nc.clazz;
            while (true) {
                if (clazz instanceof JCTypeApply) { scan(((JCTypeApply) clazz).arguments, p); clazz = ((JCTypeApply) clazz).clazz; }
                else if (clazz instanceof JCAnnotatedType) { scan(((JCAnnotatedType) clazz).annotations, p); clazz = ((JCAnnotatedType) clazz).underlyingType; }
                else break;
            }
            Symbol classSym = TreeInfo.symbol(clazz);
            Symbol target = nc.constructor;
            if (nc.def != null) target = anonymousSuperConstructor(nc.def);
            if (clazz instanceof JCIdent) {
                JCIdent id = (JCIdent) clazz;
                ref("new", id.name.toString(), id.pos, target, classSym);
            } else if (clazz instanceof JCFieldAccess) {
                JCFieldAccess fa = (JCFieldAccess) clazz;
                String name = fa.name.toString();
                ref("new", name, selectNamePos(fa, fa.selected, name), target, classSym);
                scan(fa.selected, p);
            } else {
                scan(clazz, p);
            }
            scan(nc.args, p);
            // the anonymous body: its extends/implements clause is the `new` type itself (already reported)
            if (nc.def != null) scan(nc.def.defs, p);
            return null;
        }

        /** The superclass constructor that the anonymous class's implicit constructor invokes. */
        Symbol anonymousSuperConstructor(JCClassDecl def) {
            for (JCTree t : def.defs) {
                if (!(t instanceof JCMethodDecl)) continue;
                JCMethodDecl md = (JCMethodDecl) t;
                if (md.sym == null || !md.sym.isConstructor() || md.body == null) continue;
                for (JCStatement st : md.body.stats) {
                    if (st instanceof JCExpressionStatement && ((JCExpressionStatement) st).expr instanceof JCMethodInvocation) {
                        JCMethodInvocation mi = (JCMethodInvocation) ((JCExpressionStatement) st).expr;
                        Symbol s = TreeInfo.symbol(mi.meth);
                        if (s instanceof MethodSymbol && ((MethodSymbol) s).isConstructor()) return s;
                    }
                }
            }
            return null;
        }

        @Override public Void visitMemberReference(MemberReferenceTree node, Void p) {
            JCMemberReference mr = (JCMemberReference) node;
            String name = mr.getMode() == MemberReferenceTree.ReferenceMode.NEW ? "new" : mr.name.toString();
            Symbol fallback = null;
            if (mr.getMode() == MemberReferenceTree.ReferenceMode.NEW) fallback = TreeInfo.symbol(mr.expr);
            ref("methodRef", name, selectNamePos(mr, mr.expr, name), mr.sym, fallback);
            scan(mr.expr, p);
            scan(mr.typeargs, p);
            return null;
        }
    }

    // ---------------------------------------------------------------- JSON

    void write(Path out, List<String> files) throws IOException {
        decls.sort(Comparator.comparing((Decl d) -> d.file).thenComparingInt(d -> d.offset)
                .thenComparing(d -> d.kind).thenComparing(d -> d.qualified));
        Comparator<Ref> byPos = Comparator.comparing((Ref r) -> r.file).thenComparingInt(r -> r.offset)
                .thenComparing(r -> r.kind).thenComparing(r -> r.target).thenComparing(r -> r.from);
        refs.sort(byPos);
        importRefs.sort(byPos);
        packages.sort(Comparator.comparing((Pkg k) -> k.file).thenComparingInt(k -> k.offset).thenComparing(k -> k.name));
        if (out.getParent() != null) Files.createDirectories(out.getParent());
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write("{\"sourceRoot\":" + str(root.toString()) + ",\"errors\":" + errors + ",\"files\":[");
            for (int i = 0; i < files.size(); i++) w.write((i > 0 ? "," : "") + "\n" + str(files.get(i)));
            w.write("],\"declarations\":[");
            for (int i = 0; i < decls.size(); i++) {
                Decl d = decls.get(i);
                StringBuilder sb = new StringBuilder(i > 0 ? ",\n" : "\n");
                sb.append("{\"kind\":").append(str(d.kind)).append(",\"name\":").append(str(d.name))
                  .append(",\"owner\":").append(str(d.owner)).append(",\"qualified\":").append(str(d.qualified))
                  .append(",\"file\":").append(str(d.file)).append(",\"line\":").append(d.line).append(",\"col\":").append(d.col)
                  .append(",\"modifiers\":[").append(d.modifiers.stream().map(RefOracle::str).collect(Collectors.joining(","))).append(']');
                if (d.body != null) {
                    int[] b = d.body;
                    sb.append(",\"body\":{\"startLine\":").append(b[0]).append(",\"startCol\":").append(b[1])
                      .append(",\"endLine\":").append(b[2]).append(",\"endCol\":").append(b[3])
                      .append(",\"startOffset\":").append(b[4]).append(",\"endOffset\":").append(b[5]).append('}');
                }
                w.write(sb.append('}').toString());
            }
            w.write("],\"references\":[");
            for (int i = 0; i < refs.size(); i++) {
                Ref r = refs.get(i);
                w.write((i > 0 ? ",\n" : "\n") + "{\"kind\":" + str(r.kind) + ",\"name\":" + str(r.name) + ",\"file\":" + str(r.file)
                        + ",\"line\":" + r.line + ",\"col\":" + r.col + ",\"from\":" + str(r.from) + ",\"target\":" + str(r.target) + "}");
            }
            w.write("],\"imports\":[");
            for (int i = 0; i < importRefs.size(); i++) {
                Ref r = importRefs.get(i);
                w.write((i > 0 ? ",\n" : "\n") + "{\"kind\":" + str(r.kind) + ",\"name\":" + str(r.name) + ",\"file\":" + str(r.file)
                        + ",\"line\":" + r.line + ",\"col\":" + r.col + ",\"target\":" + str(r.target) + "}");
            }
            w.write("],\"packages\":[");
            for (int i = 0; i < packages.size(); i++) {
                Pkg k = packages.get(i);
                w.write((i > 0 ? ",\n" : "\n") + "{\"name\":" + str(k.name) + ",\"file\":" + str(k.file) + ",\"line\":" + k.line
                        + ",\"col\":" + k.col + ",\"endLine\":" + k.endLine + ",\"endCol\":" + k.endCol + "}");
            }
            w.write("]}\n");
        }
    }

    static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.append('"').toString();
    }
}
