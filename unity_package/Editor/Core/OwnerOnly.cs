// Owner-only access for the files that hold the bridge's token, on every platform the Unity
// editor runs on, with no call that does not exist there. The only platform-specific calls of the
// package live here, each behind the platform check:
//   Windows (Win32NT): a protected DACL (no inherited entries) that grants the owner full control
//     and nobody else, through System.Security.AccessControl, which Unity's Mono implements with
//     advapi32 on Windows only (elsewhere it throws PlatformNotSupportedException). Reached by
//     reflection: editor assemblies may be compiled against .NET Standard 2.1, which lacks
//     File.GetAccessControl, while the runtime's mscorlib always has it.
//   macOS and Linux (Unix, MacOSX): chmod through libc (0600 files, 0700 folders).
//   anything else: nothing.
// Failures are returned, never thrown. No Unity dependency.
using System;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;

namespace UnityIndex.Bridge
{
    public enum OwnerOnlyMethod
    {
        None,
        PosixChmod,
        WindowsAcl,
    }

    public sealed class OwnerOnlyResult
    {
        public OwnerOnlyResult(OwnerOnlyMethod method, bool ok, string detail)
        {
            Method = method;
            Ok = ok;
            Detail = detail;
        }

        public OwnerOnlyMethod Method { get; private set; }
        public bool Ok { get; private set; }
        /// <summary>Why it failed ("" when it worked).</summary>
        public string Detail { get; private set; }
    }

    public static class OwnerOnly
    {
        [DllImport("libc", EntryPoint = "chmod", SetLastError = true)]
        private static extern int LibcChmod(string path, uint mode);

        // macOS when the runtime has no mapping for "libc" (Mono's config maps it; this is a fallback).
        [DllImport("/usr/lib/libSystem.dylib", EntryPoint = "chmod", SetLastError = true)]
        private static extern int SystemChmod(string path, uint mode);

        public static OwnerOnlyMethod Select(PlatformID platform)
        {
            switch (platform)
            {
                case PlatformID.Win32NT: return OwnerOnlyMethod.WindowsAcl;
                case PlatformID.Unix:
                case PlatformID.MacOSX: return OwnerOnlyMethod.PosixChmod;
                default: return OwnerOnlyMethod.None; // Win32S, Win32Windows, WinCE, Xbox: no editor
            }
        }

        public static bool IsWindows
        {
            get { return Select(Environment.OSVersion.Platform) == OwnerOnlyMethod.WindowsAcl; }
        }

        /// <summary>Makes path (a file, or a folder and what is later created in it) the owner's only.</summary>
        public static OwnerOnlyResult Apply(string path, bool isDirectory)
        {
            return Apply(path, isDirectory, Environment.OSVersion.Platform);
        }

        /// <summary>As Apply(path, isDirectory), with the method chosen for the given platform.</summary>
        public static OwnerOnlyResult Apply(string path, bool isDirectory, PlatformID platform)
        {
            OwnerOnlyMethod method = Select(platform);
            try
            {
                switch (method)
                {
                    case OwnerOnlyMethod.PosixChmod:
                        int rc = Chmod(path, isDirectory ? 448u /* 0700 */ : 384u /* 0600 */);
                        return rc == 0
                            ? new OwnerOnlyResult(method, true, "")
                            : new OwnerOnlyResult(method, false, "chmod failed (errno " + Marshal.GetLastWin32Error() + ")");
                    case OwnerOnlyMethod.WindowsAcl:
                        WindowsAcl.Restrict(path, isDirectory);
                        return new OwnerOnlyResult(method, true, "");
                    default:
                        return new OwnerOnlyResult(method, false, "no owner-only permission on " + platform);
                }
            }
            catch (Exception e)
            {
                var tie = e as TargetInvocationException;
                if (tie != null && tie.InnerException != null) e = tie.InnerException;
                return new OwnerOnlyResult(method, false, e.GetType().Name + ": " + e.Message);
            }
        }

        private static int Chmod(string path, uint mode)
        {
            try
            {
                return LibcChmod(path, mode);
            }
            catch (DllNotFoundException)
            {
                return SystemChmod(path, mode);
            }
        }

        /// <summary>
        /// The DACL in SDDL that grants only the owner (as "O:&lt;sid or alias&gt;" from the object's own
        /// descriptor) full control; protected ("P"), so nothing is inherited from the folders above;
        /// on a folder inherited by the files and folders created in it ("OICI").
        /// </summary>
        public static string OwnerOnlyDacl(string ownerSddl, bool isDirectory)
        {
            if (ownerSddl == null || !ownerSddl.StartsWith("O:", StringComparison.Ordinal) || ownerSddl.Length < 3 || ownerSddl.IndexOf(':', 2) >= 0)
                throw new ArgumentException("expected an owner in SDDL (\"O:<sid>\"), got '" + ownerSddl + "'");
            return "D:P(A;" + (isDirectory ? "OICI" : "") + ";FA;;;" + ownerSddl.Substring(2) + ")";
        }
    }

    /// <summary>System.Security.AccessControl through reflection (see OwnerOnly for why).</summary>
    public static class WindowsAcl
    {
        private const int SectionAccess = 2, SectionOwner = 4; // AccessControlSections.Access, .Owner

        /// <summary>Reads the owner, then writes a protected DACL for the owner alone (Windows only).</summary>
        public static void Restrict(string path, bool isDirectory)
        {
            Type holder = isDirectory ? typeof(Directory) : typeof(File);
            object current = Method(holder, "GetAccessControl", typeof(string)).Invoke(null, new object[] { path });
            Type sections = CorlibType("System.Security.AccessControl.AccessControlSections");
            string owner = (string)Method(current.GetType(), "GetSecurityDescriptorSddlForm", sections)
                .Invoke(current, new[] { Enum.ToObject(sections, SectionOwner) });
            object fresh = Describe(OwnerOnly.OwnerOnlyDacl(owner, isDirectory), isDirectory);
            Method(holder, "SetAccessControl", typeof(string), fresh.GetType()).Invoke(null, new[] { path, fresh });
        }

        /// <summary>A FileSecurity (DirectorySecurity) holding the DACL dacl (managed only: runs on any platform).</summary>
        public static object Describe(string dacl, bool isDirectory)
        {
            Type type = CorlibType(isDirectory ? "System.Security.AccessControl.DirectorySecurity" : "System.Security.AccessControl.FileSecurity");
            Type sections = CorlibType("System.Security.AccessControl.AccessControlSections");
            object security = Activator.CreateInstance(type);
            Method(type, "SetSecurityDescriptorSddlForm", typeof(string), sections)
                .Invoke(security, new[] { dacl, Enum.ToObject(sections, SectionAccess) });
            // Mono takes the entries from the SDDL but not its "P" (protected) flag: without this the
            // file would still inherit its folder's entries when written.
            Method(type, "SetAccessRuleProtection", typeof(bool), typeof(bool)).Invoke(security, new object[] { true, false });
            return security;
        }

        /// <summary>The DACL of a Describe result, in SDDL (for the tests: what would be written).</summary>
        public static string DaclOf(object security)
        {
            Type sections = CorlibType("System.Security.AccessControl.AccessControlSections");
            return (string)Method(security.GetType(), "GetSecurityDescriptorSddlForm", sections)
                .Invoke(security, new[] { Enum.ToObject(sections, SectionAccess) });
        }

        private static Type CorlibType(string name)
        {
            Type t = typeof(object).Assembly.GetType(name);
            if (t == null) throw new PlatformNotSupportedException(name + " is not in this runtime");
            return t;
        }

        private static MethodInfo Method(Type type, string name, params Type[] args)
        {
            MethodInfo m = type.GetMethod(name, args);
            if (m == null) throw new PlatformNotSupportedException(type.Name + "." + name + " is not in this runtime");
            return m;
        }
    }
}
